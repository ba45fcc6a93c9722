import { describe, expect, it } from "vitest";
import type { Pool } from "../schema/worker.ts";
import { WorkerSchema } from "../schema/worker.ts";
import { StrategySchema, stepsFor } from "./strategy.ts";

const pool: Pool = [
  ["p-solver", "Solver"],
  ["p-cheap", "Cheap"],
  ["p-judge", "Judge"],
].map(([id, name]) => WorkerSchema.parse({ id, name }));
const reordered: Pool = [pool[2]!, pool[0]!, pool[1]!];
const workersOf = (steps: ReturnType<typeof stepsFor>) =>
  typeof steps === "string" ? steps : steps.map((s) => s.worker);

describe("stepsFor: fixed strategies name their workers by id", () => {
  it("finds named workers by name, whatever the pool's order", () => {
    const s = StrategySchema.parse({ kind: "best-of-n", worker: "Cheap", judge: "Judge", n: 2 });
    expect(workersOf(stepsFor(s, pool))).toEqual(["p-cheap", "p-cheap", "p-judge"]);
    expect(workersOf(stepsFor(s, reordered))).toEqual(["p-cheap", "p-cheap", "p-judge"]);
  });

  it("takes unnamed workers by place (the last if fewer) and gives their ids", () => {
    const chain = StrategySchema.parse({ kind: "chain" });
    expect(workersOf(stepsFor(chain, pool))).toEqual(["p-solver", "p-cheap", "p-judge"]);
    expect(workersOf(stepsFor(chain, reordered))).toEqual(["p-judge", "p-solver", "p-cheap"]);
    expect(workersOf(stepsFor(chain, [pool[1]!]))).toEqual(["p-cheap", "p-cheap", "p-cheap"]);
    expect(stepsFor(chain, [])).toBe("The pool is empty.");
  });

  it("says which name the pool lacks", () => {
    const s = StrategySchema.parse({ kind: "single", worker: "Nobody" });
    expect(stepsFor(s, pool)).toBe('No worker named "Nobody" in the pool.');
  });

  it("runs a workflow's steps on their worker ids, and names an id the pool lacks", () => {
    const steps = [
      { worker: "p-judge", subtask: "Solve.", access: [] },
      { worker: "p-solver", subtask: "Answer.", access: "all" as const },
    ];
    const s = StrategySchema.parse({ kind: "workflow", steps });
    const got = stepsFor(s, reordered);
    // The answer-format instruction ends the posed question; no subtask repeats it.
    expect(got).toEqual(steps);
    expect(stepsFor(s, [pool[0]!, pool[1]!])).toBe(
      "The workflow names a worker the pool lacks (p-judge).",
    );
  });
});
