import { describe, expect, it } from "vitest";
import type { Step } from "../schema/workflow.ts";
import {
  WORKER_PREAMBLE,
  WORKER_PREFILL,
  buildWorkerMessages,
  prefillModeOf,
  roundSeesPrevious,
} from "./messages.ts";
import type { PriorStep } from "./messages.ts";

const question = "Is 91 prime?";
const steps: Step[] = [
  { worker: 3, subtask: "Factor 91.", access: [] },
  { worker: 1, subtask: "Check the factorisation.", access: "all" },
  { worker: 0, subtask: "Give the final answer.", access: [0] },
];
const outputs = ["91 = 7 * 13", "Correct: 7 * 13 = 91."];
const previousRound: PriorStep[] = [
  { worker: 2, subtask: "Answer directly.", output: "91 is prime." },
  { worker: 4, subtask: "Double-check.", output: "  " },
];

function content(
  index: number,
  extra: { previousRound?: PriorStep[]; outputs?: (string | undefined)[] } = {},
): string {
  const messages = buildWorkerMessages({
    question,
    steps,
    index,
    outputs: extra.outputs ?? outputs,
    ...extra,
  });
  expect(messages).toHaveLength(1);
  return messages[0]?.content ?? "";
}

describe("buildWorkerMessages", () => {
  it("gives the first step only the question and its subtask", () => {
    expect(content(0)).toBe(
      `${WORKER_PREAMBLE}

<overall_task>
Is 91 prime?
</overall_task>

Your assigned subtask: Factor 91.`,
    );
  });

  it('shows every earlier step to a step with access "all"', () => {
    expect(content(1)).toBe(
      `${WORKER_PREAMBLE}

<overall_task>
Is 91 prime?
</overall_task>

<Subtask assigned to Agent 3>
Factor 91.
</Subtask assigned to Agent 3>

<Agent 3 response>
91 = 7 * 13
</Agent 3 response>

Your assigned subtask: Check the factorisation.`,
    );
  });

  it("shows only the listed steps to a step with indices", () => {
    expect(content(2)).toBe(
      `${WORKER_PREAMBLE}

<overall_task>
Is 91 prime?
</overall_task>

<Subtask assigned to Agent 3>
Factor 91.
</Subtask assigned to Agent 3>

<Agent 3 response>
91 = 7 * 13
</Agent 3 response>

Your assigned subtask: Give the final answer.`,
    );
  });

  it("skips empty and missing outputs", () => {
    const chain: Step[] = [
      { worker: 0, subtask: "A", access: [] },
      { worker: 1, subtask: "B", access: [] },
      { worker: 2, subtask: "C", access: "all" },
      { worker: 3, subtask: "D", access: "all" },
    ];
    const messages = buildWorkerMessages({
      question,
      steps: chain,
      index: 3,
      outputs: [" \n", undefined, "from C"],
    });
    const text = messages[0]?.content ?? "";
    expect(text).not.toContain("Agent 0");
    expect(text).not.toContain("Agent 1");
    expect(text).toContain(
      "<Subtask assigned to Agent 2>\nC\n</Subtask assigned to Agent 2>\n\n<Agent 2 response>\nfrom C\n</Agent 2 response>",
    );
  });

  it('shows non-empty previous-round steps to every step of a round that has an "all"', () => {
    const previousBlocks = `<Previous round subtask assigned to Agent 2>
Answer directly.
</Previous round subtask assigned to Agent 2>

<Previous round Agent 2 response>
91 is prime.
</Previous round Agent 2 response>`;
    expect(content(0, { previousRound })).toBe(
      `${WORKER_PREAMBLE}

<overall_task>
Is 91 prime?
</overall_task>

${previousBlocks}

Your assigned subtask: Factor 91.`,
    );
    expect(content(2, { previousRound })).toBe(
      `${WORKER_PREAMBLE}

<overall_task>
Is 91 prime?
</overall_task>

${previousBlocks}

<Subtask assigned to Agent 3>
Factor 91.
</Subtask assigned to Agent 3>

<Agent 3 response>
91 = 7 * 13
</Agent 3 response>

Your assigned subtask: Give the final answer.`,
    );
    expect(content(1, { previousRound })).not.toContain("Agent 4");
  });

  it('hides the previous round when no step has access "all"', () => {
    const narrow: Step[] = [
      { worker: 0, subtask: "A", access: [] },
      { worker: 1, subtask: "B", access: [0] },
    ];
    for (const index of [0, 1]) {
      const messages = buildWorkerMessages({
        question,
        steps: narrow,
        index,
        outputs: ["a"],
        previousRound,
      });
      expect(messages[0]?.content).not.toContain("Previous round");
    }
  });

  it("adds the assistant prefill only when enabled", () => {
    const on = buildWorkerMessages({ question, steps, index: 0, outputs: [], prefill: true });
    expect(on.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(on[1]?.content).toBe(WORKER_PREFILL);
    const off = buildWorkerMessages({ question, steps, index: 0, outputs: [], prefill: false });
    expect(off.map((m) => m.role)).toEqual(["user"]);
  });

  it("folds the prefill into the user message for a model that cannot continue an assistant message", () => {
    const folded = buildWorkerMessages({
      question,
      steps,
      index: 0,
      outputs: [],
      prefill: "folded",
    });
    expect(folded.map((m) => m.role)).toEqual(["user"]);
    const plain = buildWorkerMessages({ question, steps, index: 0, outputs: [] });
    expect(folded[0]?.content).toBe(
      `${plain[0]?.content}\n\nBegin your reply with this sentence: "${WORKER_PREFILL}"`,
    );
    expect(
      buildWorkerMessages({ question, steps, index: 0, outputs: [], prefill: "none" }),
    ).toEqual(plain);
  });

  it("gives in-browser workers the folded prefill and API workers the assistant one", () => {
    expect(prefillModeOf({ kind: "webllm", prefill: true })).toBe("folded");
    expect(prefillModeOf({ kind: "openai", prefill: true })).toBe("assistant");
    expect(prefillModeOf({ kind: "webllm", prefill: false })).toBe("none");
    expect(prefillModeOf(undefined)).toBe("none");
  });

  it("throws on a step index outside the workflow, which is a bug in the caller", () => {
    expect(() => buildWorkerMessages({ question, steps, index: 3, outputs })).toThrow(RangeError);
  });
});

describe("roundSeesPrevious", () => {
  it('is true exactly when some step has access "all"', () => {
    expect(roundSeesPrevious(steps)).toBe(true);
    expect(roundSeesPrevious([{ worker: 0, subtask: "A", access: "all" }])).toBe(true);
    expect(roundSeesPrevious([{ worker: 0, subtask: "A", access: [] }])).toBe(false);
    expect(roundSeesPrevious([])).toBe(false);
  });
});
