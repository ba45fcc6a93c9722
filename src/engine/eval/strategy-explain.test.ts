import { describe, expect, it } from "vitest";
import type { Pool } from "../schema/worker.ts";
import { worker } from "../../test-support/engine/eval/eval-runner.ts";
import { callsText, explainStrategy, listNames } from "./strategy-explain.ts";

const POOL: Pool = [worker("Solver"), worker("Checker"), worker("Judge")];
const explain = (...a: Parameters<typeof explainStrategy>) => {
  const e = explainStrategy(...a);
  if (typeof e === "string") throw new Error(e);
  return e;
};

describe("explainStrategy", () => {
  it("counts a fixed strategy's calls from the steps it runs, on the pool it is given", () => {
    expect(explain({ kind: "single", worker: "Checker" }, POOL)).toEqual({
      text: "Checker answers alone.",
      workers: ["Checker"],
      calls: { min: 1, max: 1 },
    });
    const moa = explain({ kind: "moa" }, POOL);
    expect(moa.calls).toEqual({ min: 4, max: 4 });
    expect(moa.text).toBe(
      "Solver, Checker and Judge each answer on their own; Solver checks and combines their answers (Mixture-of-Agents).",
    );
    // Two workers: MoA is two attempts and an aggregation.
    expect(explain({ kind: "moa" }, POOL.slice(0, 2)).calls.max).toBe(3);
    expect(explain({ kind: "chain" }, POOL).text).toBe(
      "Solver answers, Checker checks that answer, Judge gives the final answer.",
    );
    // With one worker, the chain is that worker three times.
    expect(explain({ kind: "chain" }, POOL.slice(0, 1)).workers).toEqual([
      "Solver",
      "Solver",
      "Solver",
    ]);
    const best = explain({ kind: "best-of-n", n: 5 }, POOL);
    expect(best.calls).toEqual({ min: 6, max: 6 });
    expect(best.text).toBe("Solver answers 5 times independently; Checker picks the best answer.");
  });

  it("gives the user's workflow its steps and workers", () => {
    const steps = [
      { worker: "Judge", subtask: "a", access: [] as number[] },
      { worker: "Solver", subtask: "b", access: "all" as const },
    ];
    expect(explain({ kind: "workflow", steps }, POOL)).toEqual({
      text: "The studio's workflow on every question: 2 steps, Judge → Solver.",
      workers: ["Judge", "Solver"],
      calls: { min: 2, max: 2 },
    });
  });

  it("bounds the Conductor's calls by its step cap and refinement rounds", () => {
    expect(explain({ kind: "conductor", rounds: 0 }, POOL).calls).toEqual({ min: 2, max: 6 });
    expect(explain({ kind: "conductor", rounds: 1, maxSteps: 3 }, POOL)).toEqual({
      text: "The Conductor plans each question: 1 planning call, then 1–3 steps of its choice from Solver, Checker and Judge. 1 refinement round may add a workflow each (or accept the answer).",
      workers: ["Solver", "Checker", "Judge"],
      calls: { min: 3, max: 8 },
    });
  });

  it("counts a nested plan where a step goes to the Conductor itself", () => {
    const pool: Pool = [...POOL, { ...worker("Conductor"), kind: "conductor" }];
    expect(explain({ kind: "conductor", rounds: 0 }, pool).text).toContain("nested workflow");
    const steps = [{ worker: "Conductor", subtask: "a", access: [] as number[] }];
    expect(explain({ kind: "workflow", steps }, pool).calls).toEqual({ min: 2, max: 6 });
  });

  it("says why a strategy cannot run on the pool", () => {
    expect(explainStrategy({ kind: "single", worker: "Gone" }, POOL)).toBe(
      'No worker named "Gone" in the pool.',
    );
    expect(explainStrategy({ kind: "moa" }, [])).toBe("The pool is empty.");
    // The Conductor too: "steps of its choice from ." said nothing.
    expect(explainStrategy({ kind: "conductor", rounds: 0 }, [])).toBe("The pool is empty.");
  });
});

describe("wording", () => {
  it("lists names and calls as a sentence reads", () => {
    expect(listNames([])).toBe("");
    expect(listNames(["a"])).toBe("a");
    expect(listNames(["a", "b"])).toBe("a and b");
    expect(listNames(["a", "b", "c"])).toBe("a, b and c");
    expect(callsText({ min: 1, max: 1 })).toBe("1 call a question");
    expect(callsText({ min: 2, max: 12 })).toBe("2–12 calls a question");
  });
});
