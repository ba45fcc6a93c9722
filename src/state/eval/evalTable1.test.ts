// The studio's Table 1: the latest stored evaluation of each benchmark preset, with its results.
import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import type { Evaluation } from "../../engine/eval/schema.ts";
import { table1 } from "../../engine/eval/table1.ts";
import { evalStore } from "./evalStore.ts";
import { table1Choices, table1Columns, table1Runs } from "./evalTable1.ts";
import { resetEvaluate } from "../../test-support/state/studio-state.ts";
import { storedEvaluation } from "../../test-support/engine/eval/stored-evaluation.ts";

/** A stored evaluation `id` made at `createdAt`, of the preset `benchmark` when one is named. */
const evaluation = (id: string, benchmark: string | null, createdAt: number): Evaluation =>
  storedEvaluation(id, benchmark ? { id: benchmark, name: benchmark.toUpperCase() } : null, {
    createdAt,
  });

beforeEach(() => resetEvaluate("table1"));

describe("the studio's Table 1", () => {
  it("offers evaluations of presets only, the latest of each benchmark chosen", async () => {
    const store = evalStore();
    await store.saveEvaluation(evaluation("old-gpqa", "gpqa", 1), []);
    await store.saveEvaluation(evaluation("new-gpqa", "gpqa", 3), []);
    await store.saveEvaluation(evaluation("lcb", "lcb", 2), []);
    await store.saveEvaluation(evaluation("own-file", null, 4), []);
    const c = await table1Choices();
    expect(c.all.map((e) => e.id)).toEqual(["new-gpqa", "lcb", "old-gpqa"]);
    expect(c.chosen).toEqual(["new-gpqa", "lcb"]);
    const runs = await table1Runs(c.all.filter((e) => c.chosen.includes(e.id)));
    expect(table1(runs).benchmarks).toEqual(["GPQA", "LCB"]);
  });

  it("puts the columns in the presets' order, whichever benchmark ran last", () => {
    const columns = table1Columns([
      evaluation("mmlu", "mmlu", 3),
      evaluation("own", "not-a-preset", 4),
      evaluation("gsm8k", "gsm8k", 2),
      evaluation("math", "math-500", 1),
    ]);
    expect(columns.map((e) => e.id)).toEqual(["math", "gsm8k", "mmlu", "own"]);
  });
});
