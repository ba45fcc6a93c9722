import { describe, expect, it } from "vitest";
import { buildWorkerMessages } from "../exec/messages.ts";
import type { Worker } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import {
  TYPICAL_OUTPUT_TOKENS,
  estimateRun,
  notInPool,
  promptTokensOf,
  tokensCost,
} from "./cost-estimate.ts";

const base: Omit<Worker, "id" | "name"> = {
  kind: "openai",
  baseURL: "http://x/v1",
  model: "m",
  temperature: 0.2,
  maxTokens: 1000,
  prefill: false,
};
const pool: Worker[] = [
  { ...base, id: "a", name: "A", price: { input: 2, output: 10 } },
  { ...base, id: "b", name: "B", maxTokens: 200, price: { input: 1, output: 4 } },
  { ...base, id: "c", name: "C" },
  { ...base, id: "d", name: "D", kind: "webllm" },
];
const question = "What is 6 times 7?";

describe("tokensCost", () => {
  it("multiplies prompt and output tokens by their per-million prices", () => {
    // 1500 * 2 / 1e6 + 1000 * 10 / 1e6 = 0.003 + 0.01
    expect(tokensCost(1500, 1000, { input: 2, output: 10 })).toBeCloseTo(0.013, 12);
    expect(tokensCost(0, 0, { input: 2, output: 10 })).toBe(0);
  });
});

describe("estimateRun", () => {
  it("counts a first step's prompt from the real worker message and its output as max tokens", () => {
    const steps: Step[] = [{ worker: "a", subtask: "Multiply.", access: [] }];
    const estimate = estimateRun({ question, steps, pool });
    const expected = promptTokensOf(
      buildWorkerMessages({
        question,
        steps,
        workerIds: ["a", "b", "c", "d"],
        index: 0,
        outputs: [],
      }),
    );
    const step = estimate.steps[0];
    expect(step?.promptTokens).toEqual({ max: expected, typical: expected });
    expect(step?.outputTokens).toEqual({ max: 1000, typical: TYPICAL_OUTPUT_TOKENS });
    expect(step?.cost?.max).toBeCloseTo((expected * 2 + 1000 * 10) / 1e6, 12);
    expect(step?.cost?.typical).toBeCloseTo((expected * 2 + 600 * 10) / 1e6, 12);
    expect(estimate.unpricedSteps).toBe(0);
  });

  it("sizes an earlier step's output in a later prompt by that step's token budget", () => {
    const steps: Step[] = [
      { worker: "a", subtask: "Solve.", access: [] },
      { worker: "b", subtask: "Check.", access: "all" },
      { worker: "a", subtask: "Solve again alone.", access: [] },
    ];
    const e = estimateRun({ question, steps, pool });
    const [s0, s1, s2] = e.steps;
    // Step 1 sees step 0: its prompt grows by step 0's output (1000 max, 600 typical) plus tags.
    const alone = promptTokensOf(
      buildWorkerMessages({
        question,
        steps: [{ ...steps[1]!, access: [] }],
        workerIds: ["a", "b", "c", "d"],
        index: 0,
        outputs: [],
      }),
    );
    expect(s1!.promptTokens.max - alone).toBeGreaterThan(1000);
    expect(s1!.promptTokens.max - alone).toBeLessThan(1100);
    expect(s1!.promptTokens.max - s1!.promptTokens.typical).toBe(1000 - 600);
    // Worker B has max tokens 200, below the typical figure: both scenarios use 200.
    expect(s1!.outputTokens).toEqual({ max: 200, typical: 200 });
    // A step with access [] is not affected by earlier outputs.
    expect(s2!.promptTokens.max).toBe(s2!.promptTokens.typical);
    expect(e.promptTokens.max).toBe(
      s0!.promptTokens.max + s1!.promptTokens.max + s2!.promptTokens.max,
    );
    expect(e.outputTokens).toEqual({ max: 2200, typical: 1400 });
    expect(e.cost.max).toBeCloseTo(s0!.cost!.max + s1!.cost!.max + s2!.cost!.max, 12);
  });

  it("marks steps without a price, or without a worker, as unknown and leaves them out of the cost", () => {
    const steps: Step[] = [
      { worker: "a", subtask: "Solve.", access: [] },
      { worker: "c", subtask: "Unpriced.", access: [] },
      { worker: "zed", subtask: "No such worker.", access: [] },
    ];
    const e = estimateRun({ question, steps, pool });
    expect(e.steps.map((s) => s.pricing)).toEqual(["priced", "no_price", "no_worker"]);
    expect(e.steps[1]?.cost).toBeNull();
    expect(e.steps[2]?.cost).toBeNull();
    expect(e.steps[2]).toMatchObject({ worker: "zed", workerName: notInPool("zed") });
    expect(notInPool("zed")).toContain("zed");
    expect(e.unpricedSteps).toBe(2);
    expect(e.cost).toEqual(e.steps[0]?.cost);
  });

  it("follows a step's worker by id when the pool is reordered, and names an unchosen one", () => {
    const steps: Step[] = [
      { worker: "b", subtask: "Solve.", access: [] },
      { worker: "", subtask: "Not chosen.", access: [] },
    ];
    const reordered = [pool[3]!, pool[1]!, pool[0]!, pool[2]!];
    const e = estimateRun({ question, steps, pool: reordered });
    expect(e.steps.map((st) => [st.worker, st.workerName, st.pricing])).toEqual([
      ["b", "B", "priced"],
      ["", notInPool(""), "no_worker"],
    ]);
    expect(e.steps[0]?.outputTokens.max).toBe(200);
    expect(e.steps[0]?.cost).toEqual(estimateRun({ question, steps, pool }).steps[0]?.cost);
  });

  it("counts an in-browser worker as free", () => {
    const e = estimateRun({
      question,
      steps: [{ worker: "d", subtask: "Draft.", access: [] }],
      pool,
    });
    expect(e.steps[0]?.pricing).toBe("free");
    expect(e.cost).toEqual({ max: 0, typical: 0 });
    expect(e.unpricedSteps).toBe(0);
  });

  it("includes the assistant prefill where the worker has it on", () => {
    const steps: Step[] = [{ worker: "a", subtask: "Solve.", access: [] }];
    const off = estimateRun({ question, steps, pool }).promptTokens.max;
    const withPrefill = pool.map((w, i) => (i === 0 ? { ...w, prefill: true } : w));
    expect(estimateRun({ question, steps, pool: withPrefill }).promptTokens.max).toBeGreaterThan(
      off,
    );
  });

  it("is empty for an empty workflow", () => {
    expect(estimateRun({ question, steps: [], pool })).toEqual({
      steps: [],
      promptTokens: { max: 0, typical: 0 },
      outputTokens: { max: 0, typical: 0 },
      cost: { max: 0, typical: 0 },
      unpricedSteps: 0,
    });
  });
});
