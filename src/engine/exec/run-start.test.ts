// How a run starts: who it is (its id, kind and prompt on record), and the Conductor's first
// conversation as the settings and the backend shape it.
import { describe, expect, it } from "vitest";
import { DEFAULT_OPENING, foldedOpening } from "../conductor/prompt.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { ChatBackend } from "../llm/types.ts";
import { exportRun } from "../run/export.ts";
import { recordOf } from "../run/record.ts";
import { planResume } from "../run/rerun.ts";
import { importRunChecked } from "../run/validate.ts";
import type { RunRecord } from "../schema/record.ts";
import type { Pool } from "../schema/worker.ts";
import { ConductorConfigSchema, WorkerSchema } from "../schema/worker.ts";
import type { RunnerOptions } from "./runner.ts";
import { newRunId, runRun } from "./runner.ts";
import { priorSteps } from "./run-start.ts";
import { drain } from "../../test-support/engine/exec/collect-events.ts";

const pool: Pool = ["Alpha", "Beta"].map((name, i) =>
  WorkerSchema.parse({ id: `w${i}`, name, model: `m${i}`, note: `${name} is careful.` }),
);
const conductor = ConductorConfigSchema.parse({ model: "conductor-7b" });
const PLAN = 'model_id = [0]\nsubtasks = ["Answer it."]\naccess_list = [[]]';

function options(over: Partial<RunnerOptions> = {}): RunnerOptions {
  return {
    question: "What is 2 + 2?",
    pool,
    conductor,
    conductorBackend: createFakeBackend([{ text: PLAN }]),
    backendFor: () => createFakeBackend([{ text: "4" }]),
    signal: new AbortController().signal,
    now: () => 7,
    start: { from: "plan", planOnly: true },
    ...over,
  };
}

async function startOf(o: RunnerOptions) {
  const [first] = await drain(runRun(o));
  if (first?.type !== "run_start") throw new Error("a run starts with run_start");
  return first;
}

describe("a run's start", () => {
  it("gets an id of its own that sorts by the time it started", async () => {
    const early = newRunId(1_700_000_000_000);
    const late = newRunId(1_700_000_001_000);
    expect(early).toMatch(/^run-/);
    expect(early < late).toBe(true);
    expect(newRunId(1_700_000_000_000)).not.toBe(early);
    expect((await startOf(options())).runId).toMatch(new RegExp(`^run-${(7).toString(36)}-`));
  });

  it("is planned when it plans and manual when it runs steps given to it", async () => {
    expect((await startOf(options())).kind).toBe("planned");
    const steps = [{ worker: "w0", subtask: "Answer it.", access: [] }];
    const manual = await startOf(options({ start: { from: "round", round: 0, steps } }));
    expect(manual.kind).toBe("manual");
    const named = await startOf(options({ run: { kind: "edited", parentId: "run-x" } }));
    expect(named).toMatchObject({ kind: "edited", parentId: "run-x" });
  });

  it("records the prompt the Conductor got: the defaults, or the settings given", async () => {
    expect((await startOf(options())).prompt).toEqual({ template: "", namedWorkers: false });
    const given = await startOf(
      options({ prompt: { template: "Plan {{question}} with {{workers}}", namedWorkers: true } }),
    );
    expect(given.prompt).toEqual({
      template: "Plan {{question}} with {{workers}}",
      namedWorkers: true,
    });
    // A run without a Conductor has no prompt to record.
    const steps = [{ worker: "w0", subtask: "Answer it.", access: [] }];
    const plain = await startOf(
      options({ conductor: undefined, start: { from: "round", round: 0, steps } }),
    );
    expect(plain.prompt).toBeNull();
  });
});

describe("the Conductor's first conversation", () => {
  const firstRequest = async (o: RunnerOptions, backend: ChatBackend & { calls: unknown[] }) => {
    await drain(runRun({ ...o, conductorBackend: backend }));
    return backend.calls[0];
  };

  it("shows the workers by name with their notes when the settings ask for it", async () => {
    const named = createFakeBackend([{ text: PLAN }]);
    await firstRequest(options({ prompt: { namedWorkers: true } }), named);
    const anonymous = createFakeBackend([{ text: PLAN }]);
    await firstRequest(options(), anonymous);
    const text = (b: typeof named) => b.calls[0]!.messages.map((m) => m.content).join("\n");
    expect(text(named)).toContain("Alpha is careful.");
    expect(text(anonymous)).not.toContain("Alpha");
    expect(text(anonymous)).toContain("Model id 0");
  });
});

describe("the conversation a resumed refinement plan continues", () => {
  const CHECK =
    'Check once more.\nmodel_id = [1]\nsubtasks = ["Check it."]\naccess_list = [["all"]]';
  const given = [{ worker: "w0", subtask: "Answer it.", access: [] as number[] }];

  /**
   * Runs `o` with a refinement round, once whole and once cut when the Conductor is asked to
   * refine, then resumes the cut run (as `stored` gives it back) as the studio does; gives both
   * runs' refinement requests and the cut run's record.
   */
  async function refinedTwice(
    o: RunnerOptions,
    continuesAssistant: boolean,
    stored: (r: RunRecord) => RunRecord = (r) => r,
  ) {
    const planned = o.start.from === "plan";
    const run = (over: Partial<RunnerOptions>) =>
      drain(runRun({ ...o, maxRounds: 1, refine: true, ...over })).then(recordOf);
    const whole = createFakeBackend([...(planned ? [{ text: PLAN }] : []), { text: CHECK }], {
      continuesAssistant,
    });
    await run({ conductorBackend: whole });
    // Cut (a stop) when the Conductor is asked to refine.
    const abort = new AbortController();
    const cutOnce = createFakeBackend(
      (_req, n) => {
        if (planned && n === 0) return { text: PLAN };
        abort.abort();
        return { gate: new Promise<void>(() => undefined) };
      },
      { continuesAssistant },
    );
    const partial = stored(await run({ conductorBackend: cutOnce, signal: abort.signal }));
    expect(partial.status).toBe("cancelled");
    const resume = planResume(partial, true);
    expect(resume.start).toMatchObject({ from: "plan", round: 1 });
    const cut = createFakeBackend([{ text: CHECK }], { continuesAssistant });
    const resumed = await run({
      conductorBackend: cut,
      base: partial,
      seed: resume.seed,
      start: resume.start,
      run: { kind: "resumed", parentId: partial.id },
    });
    expect(resumed).toMatchObject({ status: "done", kind: "resumed" });
    return { whole: whole.calls.at(-1)!, resumed: cut.calls.at(-1)!, partial };
  }

  it("asks a first plan cut short again as it was first asked", async () => {
    const whole = createFakeBackend([{ text: PLAN }]);
    await drain(runRun(options({ conductorBackend: whole })));
    const abort = new AbortController();
    const cut = createFakeBackend(() => {
      abort.abort();
      return { gate: new Promise<void>(() => undefined) };
    });
    const partial = recordOf(
      await drain(runRun(options({ conductorBackend: cut, signal: abort.signal }))),
    );
    const resume = planResume(partial, true);
    expect(resume.start).toMatchObject({ from: "plan", round: 0 });
    const again = createFakeBackend([{ text: PLAN }]);
    // The studio resumes with the interrupted run as the base.
    await drain(runRun(options({ conductorBackend: again, base: partial, start: resume.start })));
    expect(again.calls).toEqual(whole.calls);
  });

  it("asks a first plan cut short again under the grammar as it was first asked", async () => {
    const webllm = ConductorConfigSchema.parse({ model: "c", planGrammar: "webllm" });
    const o = options({ conductor: webllm });
    // A backend that cannot continue an assistant message: the opening is folded into the prompt.
    const folds = { continuesAssistant: false };
    const whole = createFakeBackend([{ text: PLAN }], folds);
    await drain(runRun({ ...o, conductorBackend: whole }));
    const abort = new AbortController();
    const cut = createFakeBackend(() => {
      abort.abort();
      return { gate: new Promise<void>(() => undefined) };
    }, folds);
    const partial = recordOf(
      await drain(runRun({ ...o, conductorBackend: cut, signal: abort.signal })),
    );
    const resume = planResume(partial, true);
    const again = createFakeBackend([{ text: PLAN }], folds);
    await drain(runRun({ ...o, conductorBackend: again, base: partial, start: resume.start }));
    expect(whole.calls[0]?.grammar).toContain(DEFAULT_OPENING);
    expect(again.calls).toEqual(whole.calls);
  });

  it("goes on from a round that ran given steps, with no plan of its own", async () => {
    const o = options({ start: { from: "round", round: 0, steps: given } });
    const { whole, resumed } = await refinedTwice(o, true);
    expect(resumed).toEqual(whole);
  });

  it.each(["webllm", "vllm"] as const)(
    "asks under the %s grammar, the opening as its prefix, as the uninterrupted run",
    async (planGrammar) => {
      const grammar = ConductorConfigSchema.parse({ model: "c", planGrammar });
      const { whole, resumed, partial } = await refinedTwice(
        options({ conductor: grammar, start: { from: "plan" } }),
        false,
      );
      expect(whole.grammar ?? whole.extraBody).toBeDefined();
      expect(resumed).toEqual(whole);
      // The earlier turn asks for the opening, as the first plan's prompt did before the grammar
      // took the instruction out of it; the record keeps what was sent, and the opening apart.
      const asks = `\n\n${foldedOpening(DEFAULT_OPENING)}`;
      expect(whole.messages[1]?.content.endsWith(asks)).toBe(true);
      expect(whole.messages.at(-1)?.content.endsWith(asks)).toBe(false);
      const plan = partial.rounds[0]?.plan;
      expect(plan?.opening).toBe(DEFAULT_OPENING);
      expect(plan?.messages[1]?.content).toBe(whole.messages[1]?.content.slice(0, -asks.length));
    },
  );

  it("asks unconstrained as the uninterrupted run, with no opening on record", async () => {
    const { whole, resumed, partial } = await refinedTwice(
      options({ start: { from: "plan" } }),
      false,
    );
    expect(whole.grammar ?? whole.extraBody).toBeUndefined();
    expect(resumed).toEqual(whole);
    expect(partial.rounds[0]?.plan).not.toHaveProperty("opening");
  });

  it("continues a record from before the opening was kept from its messages as they are", async () => {
    // Such a record holds the prompt as a grammar sent it, and nothing to say what it left out.
    const older = (r: RunRecord): RunRecord => {
      const rounds = r.rounds.map(({ plan, ...round }) => {
        if (!plan) return { ...round, plan };
        const { opening: _dropped, ...kept } = plan;
        return { ...round, plan: kept };
      });
      const read = importRunChecked(exportRun({ ...r, rounds }));
      if (!read.ok) throw new Error(read.message);
      return read.record;
    };
    const webllm = ConductorConfigSchema.parse({ model: "c", planGrammar: "webllm" });
    const { whole, resumed, partial } = await refinedTwice(
      options({ conductor: webllm, start: { from: "plan" } }),
      false,
      older,
    );
    expect(partial.rounds[0]?.plan).not.toHaveProperty("opening");
    expect(resumed.messages.slice(0, 2)).toEqual(partial.rounds[0]?.plan?.messages);
    expect(resumed.messages.slice(2)).toEqual(whole.messages.slice(2));
    expect(resumed.grammar).toBe(whole.grammar);
  });

  it("refines a round resumed after its plan, under the grammar, as the uninterrupted run", async () => {
    const webllm = ConductorConfigSchema.parse({ model: "c", planGrammar: "webllm" });
    const folds = { continuesAssistant: false };
    const o = options({ conductor: webllm, start: { from: "plan" }, maxRounds: 1, refine: true });
    const whole = createFakeBackend([{ text: PLAN }, { text: CHECK }], folds);
    await drain(runRun({ ...o, conductorBackend: whole }));
    // Cut while the round's step runs: the plan is on record, the refinement not yet asked.
    const abort = new AbortController();
    const partial = recordOf(
      await drain(
        runRun({
          ...o,
          conductorBackend: createFakeBackend([{ text: PLAN }], folds),
          backendFor: () =>
            createFakeBackend(() => {
              abort.abort();
              return { gate: new Promise<void>(() => undefined) };
            }),
          signal: abort.signal,
        }),
      ),
    );
    const resume = planResume(partial, true);
    expect(resume.start).toMatchObject({ from: "round", round: 0 });
    const cut = createFakeBackend([{ text: CHECK }], folds);
    await drain(
      runRun({
        ...o,
        conductorBackend: cut,
        base: partial,
        seed: resume.seed,
        start: resume.start,
      }),
    );
    expect(cut.calls).toHaveLength(1);
    expect(cut.calls[0]).toEqual(whole.calls[1]);
  });
});

describe("what a round shows the next (docs/protocol.md §1.6)", () => {
  const steps = [
    { worker: "w0", subtask: "Solve it.", access: [] },
    { worker: "w1", subtask: "Check it.", access: [0] },
    { worker: "w0", subtask: "Sum up.", access: "all" as const },
  ];

  it("each step with its output when it finished, an empty output when it failed or never ran", () => {
    expect(priorSteps(steps, [{ status: "done", output: "4" }, { status: "failed" }])).toEqual([
      { worker: "w0", subtask: "Solve it.", output: "4" },
      { worker: "w1", subtask: "Check it.", output: "" },
      { worker: "w0", subtask: "Sum up.", output: "" },
    ]);
  });

  it("the run's start names the Conductor it plans with, and none when it has none", async () => {
    expect((await startOf(options())).conductor).toEqual(conductor);
    const given = [{ worker: "w0", subtask: "Answer it.", access: [] }];
    const manual = await startOf(
      options({ conductor: undefined, start: { from: "round", round: 0, steps: given } }),
    );
    expect(manual).not.toHaveProperty("conductor");
    expect(manual.prompt).toBeNull();
  });
});
