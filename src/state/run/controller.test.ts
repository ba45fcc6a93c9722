import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ChatBody } from "../../../e2e/server/server.ts";
import { createHistory } from "../../engine/graph/history.ts";
import { makeDoc } from "../../test-support/engine/graph/graph-docs.ts";
import { cancelNow, planNow, runNow, runProblem } from "./controller.ts";
import { useStudio } from "../slices/store.ts";
import {
  numberedWorker,
  resetStudio,
  serverForFile,
} from "../../test-support/state/studio-state.ts";

const server = serverForFile();

const worker = (i: number) => numberedWorker(server(), i);

const PLAN = [
  "Two independent attempts, then a check.",
  "model_id = [0, 1, 2]",
  'subtasks = ["Solve it one way", "Solve it another way", "Compare both and answer"]',
  'access_list = [[], [], ["all"]]',
].join("\n");

beforeEach(() => {
  server().reset();
  resetStudio();
  const s = useStudio.getState();
  s.setPool([worker(0), worker(1), worker(2)]);
  s.setConductor({ backend: "remote", baseURL: server().baseURL, model: "conductor" });
  s.setQuestion("What is 6 times 7?");
});

/** Each worker answers with its name and how many times it was called, e.g. "m1 #2". */
function countingWorkers() {
  for (let i = 0; i < 3; i++) {
    let calls = 0;
    server().setDefault(`m${i}`, () => `m${i} #${++calls}`);
  }
}

const callsTo = (model: string) =>
  server().requests.filter((r) => (r.body as ChatBody | undefined)?.model === model);
const doc = () => useStudio.getState().history.present;
const resultOf = (i: number) => useStudio.getState().results[doc().steps[i]?.id ?? ""];

/** Waits on a condition (vitest's waitFor; its deadline is the test's, not a timing under test). */
async function waitFor(check: () => boolean, what: string): Promise<void> {
  await vi.waitFor(
    () => {
      if (!check()) throw new Error(`still waiting for ${what}`);
    },
    { timeout: 30_000, interval: 5 },
  );
}

describe("planNow", () => {
  it("puts the Conductor's steps on the canvas and keeps the raw plan", async () => {
    server().script("conductor", { content: PLAN, chunkDelayMs: 1 });
    await planNow();
    const s = useStudio.getState();
    expect(s.phase).toBe("idle");
    expect(s.notice).toBeNull();
    expect(doc().steps.map((st) => [st.worker, st.subtask, st.access])).toEqual([
      ["w0", "Solve it one way", []],
      ["w1", "Solve it another way", []],
      ["w2", "Compare both and answer", "all"],
    ]);
    expect(s.record.rounds[0]?.plan).toMatchObject({ raw: PLAN, error: null });
    expect(s.record.question).toBe("What is 6 times 7?");
    expect(callsTo("conductor")).toHaveLength(1);
  });

  it("gives the steps the ids of the workers at the plan's model ids in the pool as shown", async () => {
    useStudio.getState().setPool([worker(2), worker(0), worker(1)]);
    server().script("conductor", { content: PLAN, chunkDelayMs: 1 });
    await planNow();
    // model_id [0, 1, 2] named the pool's first, second and third workers: w2, w0, w1.
    expect(doc().steps.map((st) => st.worker)).toEqual(["w2", "w0", "w1"]);
    expect(useStudio.getState().record.rounds[0]?.lists).toMatchObject({
      model_id: [0, 1, 2],
      workerIds: ["w2", "w0", "w1"],
    });
  });

  it("shows why a bad plan could not be used and adds no steps", async () => {
    server().script("conductor", "I would ask Model id 0, probably.");
    await planNow();
    const s = useStudio.getState();
    expect(s.notice).toMatch(/^The Conductor's plan could not be used: /);
    expect(doc().steps).toEqual([]);
    expect(s.record.rounds[0]?.plan?.error).not.toBeNull();
    expect(s.record.rounds[0]?.plan?.raw).toBe("I would ask Model id 0, probably.");
    expect(s.phase).toBe("idle");
  });

  it("shows each step as soon as its list entries are complete", async () => {
    const chunks = PLAN.match(/[^,]+,?/g) ?? [];
    server().script("conductor", { chunks, chunkDelayMs: 40 });
    const plan = planNow();
    await waitFor(() => doc().steps.length > 0, "the first step");
    expect(useStudio.getState().phase).toBe("planning");
    expect(doc().steps.length).toBeLessThan(3);
    const firstId = doc().steps[0]!.id;
    await plan;
    expect(doc().steps).toHaveLength(3);
    // The node on the canvas keeps its id (no remount) when the finished plan replaces the partial one.
    expect(doc().steps[0]!.id).toBe(firstId);
  });

  it("replaces the workflow on the canvas as one undo step", async () => {
    const mine = makeDoc([[], [0]]);
    useStudio.setState({ history: createHistory(mine) });
    server().script("conductor", { content: PLAN, chunkDelayMs: 1 });
    await planNow();
    expect(doc().steps).toHaveLength(3);
    useStudio.getState().undo();
    expect(doc()).toBe(mine);
  });

  it("stops planning without a notice", async () => {
    server().script("conductor", { content: PLAN, chunkDelayMs: 50 });
    const plan = planNow();
    await waitFor(() => (useStudio.getState().record.rounds[0]?.plan?.raw ?? "") !== "", "text");
    cancelNow();
    await plan;
    const s = useStudio.getState();
    expect(s.record.rounds[0]?.plan?.error?.code).toBe("aborted");
    expect(s.notice).toBeNull();
    expect(s.phase).toBe("idle");
  });

  it("asks for a question first", async () => {
    useStudio.getState().setQuestion("  ");
    await planNow();
    expect(useStudio.getState().notice).toMatch(/question/);
    expect(server().requests).toHaveLength(0);
  });
});

describe("runNow", () => {
  beforeEach(async () => {
    server().script("conductor", PLAN);
    await planNow();
    countingWorkers();
  });

  it("runs every step and records the answer", async () => {
    await runNow();
    const s = useStudio.getState();
    expect([0, 1, 2].map((i) => resultOf(i)?.status)).toEqual(["done", "done", "done"]);
    expect(resultOf(0)?.output).toBe("m0 #1");
    expect(s.record.answer).toBe("m2 #1");
    expect(s.record.status).toBe("done");
    // The run joins the planned record: the plan is still there for export.
    expect(s.record.rounds[0]?.plan?.raw).toBe(PLAN);
    expect(s.record.totals.calls).toBe(4);
    expect(s.phase).toBe("idle");
  });

  it("re-runs from a step: only it and its dependants are called again", async () => {
    await runNow();
    const first = resultOf(0);
    await runNow(doc().steps[1]!.id);
    expect(callsTo("m0")).toHaveLength(1);
    expect(callsTo("m1")).toHaveLength(2);
    expect(callsTo("m2")).toHaveLength(2);
    expect(resultOf(0)?.output).toBe("m0 #1");
    expect(resultOf(0)?.startedAt).toBe(first?.startedAt);
    expect(resultOf(1)?.output).toBe("m1 #2");
    expect(useStudio.getState().record.answer).toBe("m2 #2");
    // The checker read the kept output of step 1 and the new output of step 2.
    const read = JSON.stringify((callsTo("m2")[1]?.body as ChatBody).messages);
    expect(read).toContain("m0 #1");
    expect(read).toContain("m1 #2");
  });

  it("cancels a slow worker", async () => {
    server().setDefault("m0", { content: "never finished in time", latencyMs: 3000 });
    const run = runNow();
    await waitFor(() => callsTo("m0").length === 1, "the slow call");
    expect(useStudio.getState().phase).toBe("running");
    cancelNow();
    await run;
    const s = useStudio.getState();
    expect(resultOf(0)?.status).toBe("cancelled");
    expect(s.record.status).toBe("cancelled");
    expect(s.record.answer).toBeNull();
    expect(s.phase).toBe("idle");
  });
});

describe("runProblem", () => {
  const problem = () => runProblem(useStudio.getState());
  const seed = (d: ReturnType<typeof makeDoc>) => useStudio.setState({ history: createHistory(d) });

  it("names an empty workflow", () => {
    expect(problem()).toMatch(/no steps/);
  });

  it("names a step whose worker is not in the pool, and one with no worker chosen", () => {
    seed(makeDoc([[], [], [], [], []])); // workers w0..w4 with a pool of w0..w2
    expect(problem()).toBe("Step 4's worker is no longer in the pool: choose another one for it.");
    useStudio.getState().edit({ kind: "setWorker", id: "b", worker: "" });
    expect(problem()).toBe("Step 2 has no worker: choose one from the pool.");
  });

  it("names the open run's worker as the run's, unless the user removed it from the pool", () => {
    seed(makeDoc([[], [], [], []])); // step 4 is on w3, which the pool lacks
    useStudio.setState((s) => ({ record: { ...s.record, pool: [worker(3)] } }));
    expect(problem()).toBe(
      "Step 4's worker “Worker 3” is this run's, not in your pool: use this run's pool, or choose another worker for it.",
    );
    const s = useStudio.getState();
    s.addWorker(worker(3));
    s.removeWorker("w3");
    expect(problem()).toBe("Step 4's worker is no longer in the pool: choose another one for it.");
  });

  it("names an empty subtask", () => {
    seed(makeDoc([[], []]));
    useStudio.getState().edit({ kind: "setSubtask", id: "b", subtask: "   " });
    expect(problem()).toBe("Step 2 has an empty subtask.");
  });

  it("is null for a runnable workflow, and runNow refuses with the notice otherwise", async () => {
    seed(makeDoc([[], [0], "all"]));
    expect(problem()).toBeNull();
    useStudio.getState().edit({ kind: "setSubtask", id: "a", subtask: "" });
    await runNow();
    expect(useStudio.getState().notice).toBe("Step 1 has an empty subtask.");
    expect(server().requests).toHaveLength(0);
  });
});
