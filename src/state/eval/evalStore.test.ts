import "fake-indexeddb/auto";
import Dexie from "dexie";
import { describe, expect, it } from "vitest";
import { WorkerSchema } from "../../engine/schema/worker.ts";
import { SAMPLE_SETS } from "../../engine/eval/dataset/samples.ts";
import type { EvalResult, Evaluation } from "../../engine/eval/schema.ts";
import { emptyRecord } from "../../engine/run/record.ts";
import { createDexieEvalStore } from "./evalStore.ts";
import { v1Step } from "../../test-support/engine/eval/stored-v1.ts";

const evaluation = (id: string, createdAt: number): Evaluation => ({
  format: "conductor-studio-eval",
  version: 1,
  id,
  name: "n",
  createdAt,
  dataset: { name: "d", hash: "h", size: 2 },
  strategies: [{ kind: "moa" }],
  repeats: 1,
  seed: 0,
  scorer: { id: "math", options: {}, version: 1 },
  pool: [],
  conductor: null,
  concurrency: 4,
  maxCost: null,
});
const result = (item: string, runId: string, finishedAt: number): EvalResult => ({
  item,
  strategy: "moa",
  repeat: 0,
  correct: true,
  score: 1,
  answer: "7",
  expected: "7",
  tokens: 3,
  cost: 0,
  latencyMs: 5,
  runId,
  calls: 1,
  extracted: "7",
  status: "done",
  endReason: "no_rounds",
  planFailed: false,
  finishedAt,
  error: null,
});

describe("IndexedDB evaluation store", () => {
  it("keeps evaluations, questions, results and records across store instances", async () => {
    const name = `eval-test-${Math.random()}`;
    const a = createDexieEvalStore(name);
    const items = SAMPLE_SETS[0]!.items.slice(0, 2);
    await a.saveEvaluation(evaluation("e1", 1), items);
    await a.saveEvaluation(evaluation("e2", 2), items);
    await a.saveItem("e1", result("math-02", "r2", 20), { ...emptyRecord("r2"), question: "Q2" });
    await a.saveItem("e1", result("math-01", "r1", 10), { ...emptyRecord("r1"), question: "Q1" });
    // Saving the same key again replaces it: a finished item is stored once.
    await a.saveItem("e1", result("math-01", "r1", 10), { ...emptyRecord("r1"), question: "Q1" });
    const b = createDexieEvalStore(name);
    expect((await b.listEvaluations()).map((e) => e.id)).toEqual(["e2", "e1"]);
    expect(await b.loadQuestions("e1")).toEqual(items);
    expect((await b.listItems("e1")).map((r) => r.item)).toEqual(["math-01", "math-02"]);
    expect((await b.loadRecord("e1", "r2"))?.question).toBe("Q2");
    expect(await b.loadRecord("e1", "nope")).toBeNull();
    await b.deleteEvaluation("e1");
    expect(await b.listItems("e1")).toEqual([]);
    expect((await b.listEvaluations()).map((e) => e.id)).toEqual(["e2"]);
  });

  it("migrates version 1 rows (steps by pool place) on read and skips rows from a newer app", async () => {
    const name = `eval-test-${Math.random()}`;
    const raw = new Dexie(name);
    raw.version(1).stores({
      evaluations: "id, createdAt",
      results: "[evalId+key], evalId",
      records: "[evalId+runId], evalId",
    });
    const pool = ["alpha", "beta"].map((id) => WorkerSchema.parse({ id, name: id, model: id }));
    const old = {
      ...evaluation("old", 1),
      pool,
      strategies: [{ kind: "workflow", steps: [{ worker: 1, subtask: "Solve.", access: [] }] }],
    };
    await raw.table("evaluations").bulkPut([
      { id: "old", createdAt: 1, v: 1, evaluation: old, questions: [] },
      { id: "future", createdAt: 2, v: 3, evaluation: evaluation("future", 2), questions: [] },
    ]);
    const run = { ...emptyRecord("r1"), pool };
    const oldRun = {
      ...run,
      rounds: [
        {
          index: 0,
          plan: null,
          lists: null,
          steps: [v1Step(0, 0, "alpha", "Solve.")],
          answer: "ok",
          accepted: false,
        },
      ],
    };
    await raw.table("records").put({ evalId: "old", runId: "r1", v: 1, record: oldRun });
    await raw.table("records").put({ evalId: "old", runId: "r2", v: 3, record: run });
    raw.close();

    const store = createDexieEvalStore(name);
    const listed = await store.listEvaluations();
    expect(listed.map((e) => e.id)).toEqual(["old"]);
    expect(listed[0]?.strategies).toEqual([
      { kind: "workflow", steps: [{ worker: "beta", subtask: "Solve.", access: [] }] },
    ]);
    expect(await store.loadRecord("old", "r2")).toBeNull();
    expect((await store.loadRecord("old", "r1"))?.rounds[0]?.steps[0]?.worker).toBe("alpha");
  });

  it("keeps the runs a pause cut short, per evaluation, until each is forgotten", async () => {
    const name = `eval-partials-${Math.random()}`;
    const a = createDexieEvalStore(name);
    await a.saveEvaluation(evaluation("e1", 1), []);
    await a.savePartial("e1", "k1", { ...emptyRecord("p1"), question: "Q1" });
    await a.savePartial("e1", "k2", { ...emptyRecord("p2"), question: "Q2" });
    await a.savePartial("e2", "k1", { ...emptyRecord("p3"), question: "other evaluation" });
    await a.savePartial("e1", "k2", null);
    const b = createDexieEvalStore(name);
    const partials = await b.listPartials("e1");
    expect([...partials.keys()]).toEqual(["k1"]);
    expect(partials.get("k1")?.question).toBe("Q1");
    await b.deleteEvaluation("e1");
    expect((await b.listPartials("e1")).size).toBe(0);
    expect((await b.listPartials("e2")).size).toBe(1);
  });
});
