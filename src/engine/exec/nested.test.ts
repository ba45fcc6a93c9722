import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import type { ChatRequest } from "../llm/types.ts";
import { exportRun, importRun } from "../run/export.ts";
import { recordOf } from "../run/record.ts";
import type { RunEvent } from "../schema/events.ts";
import type { Pool } from "../schema/worker.ts";
import { ConductorConfigSchema, WorkerSchema } from "../schema/worker.ts";
import { WORKER_PREAMBLE } from "./messages.ts";
import { nestedQuestion } from "./nested.ts";
import type { RunOptions } from "./simple-runs.ts";
import { runConductor } from "./simple-runs.ts";
import { drain } from "../../test-support/engine/exec/collect-events.ts";

const question = "Design and verify a fast algorithm for the longest increasing subsequence.";
const pool: Pool = [
  WorkerSchema.parse({ id: "a", name: "Alpha", model: "alpha", price: { input: 1, output: 1 } }),
  WorkerSchema.parse({ id: "b", name: "Beta", model: "beta" }),
  WorkerSchema.parse({ id: "c", name: "The Conductor itself", kind: "conductor" }),
];
const conductor = ConductorConfigSchema.parse({ model: "conductor-7b" });
const SUBTASK = "Your assigned subtask: ";

const topPlan = `Alpha drafts; the Conductor itself organises a careful verification.
model_id = [0, 2]
subtasks = ["Draft an O(n log n) algorithm.", "Verify the draft thoroughly and give the final algorithm."]
access_list = [[], ["all"]]`;
const nestedPlan = `Two checks: Beta tests edge cases, Alpha writes the final version.
model_id = [1, 0]
subtasks = ["Test the draft on edge cases.", "Write the final verified algorithm."]
access_list = [[], ["all"]]`;
const nestedSelfPlan = `Hand the whole check to the Conductor again.
model_id = [2]
subtasks = ["Check everything once more."]
access_list = [["all"]]`;

const userOf = (r: ChatRequest) => r.messages.find((m) => m.role === "user")?.content ?? "";
const isPlan = (r: ChatRequest) => userOf(r).includes("USER QUESTION:");
const isNestedPlan = (r: ChatRequest) => isPlan(r) && userOf(r).includes("<overall_task>");
const subtaskOf = (r: ChatRequest) =>
  userOf(r).slice(userOf(r).lastIndexOf(SUBTASK) + SUBTASK.length);

/** A Conductor that plans `topPlan` at the top, `nested` inside, and answers worker calls directly. */
function conductorBackend(nested: string, gateNested?: Promise<void>) {
  return createFakeBackend((r): FakeReply => {
    if (isNestedPlan(r)) return { text: nested };
    if (isPlan(r)) return { text: topPlan };
    return { text: `Conductor answers "${subtaskOf(r)}"`, gate: gateNested };
  });
}
function workersBackend(replies: Record<string, FakeReply> = {}) {
  return createFakeBackend(
    (r) => replies[subtaskOf(r)] ?? { text: `Answer to "${subtaskOf(r)}".` },
  );
}
function run(extra: Partial<RunOptions> & Pick<RunOptions, "conductorBackend" | "backendFor">) {
  return runConductor({
    question,
    pool,
    conductor,
    signal: new AbortController().signal,
    retry: { baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 0 },
    now: () => 5,
    runId: "nested",
    ...extra,
  });
}

describe("self-selection: the Conductor as its own worker", () => {
  it("runs a nested plan-and-execute whose answer is the step's output", async () => {
    const c = conductorBackend(nestedPlan);
    const w = workersBackend();
    const events = await drain(run({ conductorBackend: c, backendFor: () => w }));
    const record = recordOf(events);
    expect(record.status).toBe("done");
    // Nested events never touch the top level: every one of them carries its parent path.
    expect(record.rounds[0]?.steps[0]).toMatchObject({
      status: "done",
      output: 'Answer to "Draft an O(n log n) algorithm.".',
    });
    const nestedEvents = events.filter((e) => "round" in e && "parent" in e && e.parent);
    expect(nestedEvents.filter((e) => e.type === "step_queued")).toHaveLength(2);
    expect(
      events.filter((e) => e.type === "step_queued" && !("parent" in e && e.parent)),
    ).toHaveLength(2);
    const self = record.rounds[0]?.steps[1];
    expect(self?.nested?.rounds[0]?.steps.map((s) => [s.workerName, s.status])).toEqual([
      ["Beta", "done"],
      ["Alpha", "done"],
    ]);
    const nestedAnswer = 'Answer to "Write the final verified algorithm.".';
    expect(self?.nested?.answer).toBe(nestedAnswer);
    expect(self?.output).toBe(nestedAnswer);
    expect(record.answer).toBe(nestedAnswer);
    // The nested Conductor planned for what the step could see: the question, step 1's answer, its subtask.
    const nestedPlanCall = c.calls.find(isNestedPlan);
    expect(userOf(nestedPlanCall!)).toContain('Answer to "Draft an O(n log n) algorithm.".');
    expect(userOf(nestedPlanCall!)).toContain("Verify the draft thoroughly");
    // Two plans + three worker calls, each counted once; the self step's usage is their sum.
    expect(record.totals.calls).toBe(5);
    const inner = self!.nested!.rounds[0]!;
    const innerTokens =
      (inner.plan?.usage?.promptTokens ?? 0) +
      inner.steps.reduce((t, s) => t + (s.usage?.promptTokens ?? 0), 0);
    expect(self?.usage?.promptTokens).toBe(innerTokens);
  });

  it("runs a Conductor step past the depth cap as a plain call to the Conductor's model", async () => {
    const c = conductorBackend(nestedSelfPlan);
    const w = workersBackend();
    const events = await drain(run({ conductorBackend: c, backendFor: () => w, maxDepth: 1 }));
    const record = recordOf(events);
    expect(record.status).toBe("done");
    expect(c.calls.filter(isPlan)).toHaveLength(2); // no third level of planning
    const deep = record.rounds[0]?.steps[1]?.nested?.rounds[0]?.steps[0];
    expect(deep?.nested).toBeNull();
    expect(deep?.output).toBe('Conductor answers "Check everything once more."');
  });

  it("costs a Conductor step past the depth cap at the Conductor's price", async () => {
    const c = conductorBackend(nestedSelfPlan);
    const w = workersBackend();
    const priced = ConductorConfigSchema.parse({
      model: "conductor-7b",
      price: { input: 2, output: 6 },
    });
    for (const maxDepth of [1, 0]) {
      const record = recordOf(
        await drain(run({ conductorBackend: c, backendFor: () => w, maxDepth, conductor: priced })),
      );
      const step = record.rounds[0]?.steps[1];
      const plain = maxDepth === 1 ? step?.nested?.rounds[0]?.steps[0] : step;
      expect(plain?.nested).toBeNull();
      const usage = plain!.usage!;
      expect(usage.promptTokens).toBeGreaterThan(0);
      expect(plain?.cost).toBeCloseTo(
        (usage.promptTokens * 2 + usage.completionTokens * 6) / 1_000_000,
        12,
      );
    }
  });

  it("with depth 0, never nests", async () => {
    const c = conductorBackend(nestedPlan);
    const events = await drain(
      run({ conductorBackend: c, backendFor: () => workersBackend(), maxDepth: 0 }),
    );
    const record = recordOf(events);
    expect(c.calls.filter(isPlan)).toHaveLength(1);
    expect(record.rounds[0]?.steps[1]?.nested).toBeNull();
    expect(record.answer).toContain("Conductor answers");
  });

  it("stops cleanly at the call budget inside a nested level", async () => {
    const c = conductorBackend(nestedPlan);
    const events = await drain(
      run({ conductorBackend: c, backendFor: () => workersBackend(), maxCalls: 3 }),
    );
    const record = recordOf(events);
    expect(record.status).toBe("failed");
    expect(record.endReason).toBe("budget");
    expect(record.totals.calls).toBe(3);
    expect(record.message).toContain("budget");
  });

  it("cancels every level at once", async () => {
    const controller = new AbortController();
    const never = new Promise<void>(() => undefined);
    const c = conductorBackend(nestedPlan);
    const w = workersBackend({ "Test the draft on edge cases.": { text: "slow", gate: never } });
    const events: RunEvent[] = [];
    for await (const e of run({
      conductorBackend: c,
      backendFor: () => w,
      signal: controller.signal,
    })) {
      events.push(e);
      if (e.type === "step_start" && e.parent) controller.abort();
    }
    const record = recordOf(events);
    expect(record.status).toBe("cancelled");
    expect(record.rounds[0]?.steps[1]?.status).toBe("cancelled");
    expect(record.rounds[0]?.steps[1]?.nested?.rounds[0]?.steps.map((s) => s.status)).toEqual([
      "cancelled",
      "cancelled",
    ]);
  });

  /** The record as a file written before calls were marked unpriced holds it. */
  const withoutUnpriced = (r: unknown): unknown =>
    JSON.parse(
      JSON.stringify(r, (k, v: unknown) =>
        k === "unpriced" || k === "unpricedCalls" ? undefined : v,
      ),
    );

  it("keeps nested workflows through export and import", async () => {
    const events = await drain(
      run({ conductorBackend: conductorBackend(nestedPlan), backendFor: () => workersBackend() }),
    );
    const record = recordOf(events);
    const text = exportRun(record, "2026-11-30T00:00:00.000Z");
    const back = importRun(text);
    expect(back.ok && back.record).toEqual(record);
    expect(back.ok && exportRun(back.record, "2026-11-30T00:00:00.000Z")).toBe(text);
    // The version-4 fixture (the v3 one migrated) is exactly what this version writes of the run.
    const fixture = readFileSync(
      new URL("../run/fixtures/run-v4-nested.json", import.meta.url),
      "utf8",
    );
    // The fixture predates the unpriced marks (Beta has no price): apart from them, it is exactly
    // what this version writes.
    expect(withoutUnpriced(JSON.parse(text))).toEqual(JSON.parse(fixture));
    const imported = importRun(fixture);
    expect(imported).toMatchObject({ ok: true, migratedFrom: null });
    expect(imported.ok && exportRun(imported.record, "2026-11-30T00:00:00.000Z")).toBe(fixture);
    // The version-3 fixture, written by the last version before workers by id, migrates to it.
    const v3 = importRun(
      readFileSync(new URL("../run/fixtures/run-v3-nested.json", import.meta.url), "utf8"),
    );
    expect(v3).toMatchObject({ ok: true, migratedFrom: 3 });
    // A file older than the unpriced marks never said whether a call's price was known: its calls
    // and totals come back unmarked, the rest exactly as this version records it.
    expect(v3.ok && v3.record).toEqual(withoutUnpriced(record));
  });

  it("reads the version-2 nested fixture through the v2 -> v3 -> v4 migrations", () => {
    const v2 = readFileSync(new URL("../run/fixtures/run-v2-nested.json", import.meta.url), "utf8");
    const imported = importRun(v2);
    expect(imported).toMatchObject({
      ok: true,
      migratedFrom: 2,
      record: { kind: "planned", parentId: null, kept: [], executionMs: null },
    });
    const old = JSON.parse(v2) as { run: { rounds: OldRound[]; totals: unknown } };
    // v4: each step's pool place became that worker's id (a, b, c), the lists gained the mapping.
    expect(imported.ok && imported.record.rounds).toEqual(byId(old.run.rounds, ["a", "b", "c"]));
    expect(imported.ok && imported.record.totals).toEqual(old.run.totals);
  });
});

interface OldStep {
  worker: number;
  nested: { rounds: OldRound[] } | null;
}
interface OldRound {
  lists: object | null;
  steps: OldStep[];
}
/** A v3 record's rounds as v4 holds them, given the pool's ids, written out independently of the migration. */
function byId(rounds: OldRound[], ids: string[]): unknown[] {
  return rounds.map((round) => ({
    ...round,
    lists: round.lists && { ...round.lists, workerIds: ids },
    steps: round.steps.map((step) => ({
      ...step,
      worker: ids[step.worker],
      nested: step.nested && { ...step.nested, rounds: byId(step.nested.rounds, ids) },
    })),
  }));
}

describe("nestedQuestion", () => {
  it("drops the worker preamble and keeps the task, context and subtask", () => {
    const task = "<overall_task>\nQ\n</overall_task>\n\nYour assigned subtask: check it";
    expect(nestedQuestion(`${WORKER_PREAMBLE}\n\n${task}`)).toBe(task);
    expect(nestedQuestion(task)).toBe(task);
  });

  it("a later step reads the self-selected step's answer: the nested workflow's answer", async () => {
    const selfFirst = `The Conductor organises the design; Beta reviews what it found.
model_id = [2, 1]
subtasks = ["Design the algorithm with a team.", "Review the design and answer."]
access_list = [[], [0]]`;
    const c = createFakeBackend((r): FakeReply => {
      if (isNestedPlan(r)) return { text: nestedPlan };
      return { text: selfFirst };
    });
    const w = workersBackend();
    const events = await drain(run({ conductorBackend: c, backendFor: () => w }));
    const nestedAnswer = 'Answer to "Write the final verified algorithm.".';
    const review = w.calls.find((r) => subtaskOf(r) === "Review the design and answer.");
    expect(userOf(review!)).toContain(`<Agent 2 response>\n${nestedAnswer}\n</Agent 2 response>`);
    expect(recordOf(events).rounds[0]?.steps[0]?.output).toBe(nestedAnswer);
  });
});
