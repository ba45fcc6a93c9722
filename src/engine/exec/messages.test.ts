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
  { worker: "alpha", subtask: "Factor 91.", access: [] },
  { worker: "beta", subtask: "Check the factorisation.", access: "all" },
  { worker: "zeta", subtask: "Give the final answer.", access: [0] },
];
/** The pool's ids in order: a worker's agent number is its place here, whatever its id. */
const workerIds = ["zeta", "beta", "gamma", "alpha", "delta"];
const outputs = ["91 = 7 * 13", "Correct: 7 * 13 = 91."];
const previousRound: PriorStep[] = [
  { worker: "gamma", subtask: "Answer directly.", output: "91 is prime." },
  { worker: "delta", subtask: "Double-check.", output: "  " },
];

/** buildWorkerMessages over the shared workflow, with the given fields changed. */
function build(over: Partial<Parameters<typeof buildWorkerMessages>[0]> = {}) {
  return buildWorkerMessages({ question, steps, workerIds, index: 0, outputs, ...over });
}

function content(
  index: number,
  extra: { previousRound?: PriorStep[]; outputs?: (string | undefined)[] } = {},
): string {
  const messages = build({ index, ...extra });
  expect(messages).toHaveLength(1);
  return messages[0]?.content ?? "";
}

/** The prompt the worker sees: the preamble and the question, then each block, then its subtask. */
function prompt(blocks: string[], subtask: string): string {
  const head = `${WORKER_PREAMBLE}\n\n<overall_task>\nIs 91 prime?\n</overall_task>`;
  return [head, ...blocks, `Your assigned subtask: ${subtask}`].join("\n\n");
}

/** Agent 3's (alpha's) step and its output, as a later step sees them. */
const factorBlock = `<Subtask assigned to Agent 3>
Factor 91.
</Subtask assigned to Agent 3>

<Agent 3 response>
91 = 7 * 13
</Agent 3 response>`;

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

  it.each([
    {
      access: 'shows every earlier step to a step with access "all"',
      index: 1,
      subtask: "Check the factorisation.",
    },
    {
      access: "shows only the listed steps to a step with indices",
      index: 2,
      subtask: "Give the final answer.",
    },
  ])("$access", ({ index, subtask }) => {
    expect(content(index)).toBe(prompt([factorBlock], subtask));
  });

  it("skips empty and missing outputs", () => {
    const chain: Step[] = [
      { worker: "zeta", subtask: "A", access: [] },
      { worker: "beta", subtask: "B", access: [] },
      { worker: "gamma", subtask: "C", access: "all" },
      { worker: "alpha", subtask: "D", access: "all" },
    ];
    const messages = build({ steps: chain, index: 3, outputs: [" \n", undefined, "from C"] });
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
    expect(content(0, { previousRound })).toBe(prompt([previousBlocks], "Factor 91."));
    expect(content(2, { previousRound })).toBe(
      prompt([previousBlocks, factorBlock], "Give the final answer."),
    );
    expect(content(1, { previousRound })).not.toContain("Agent 4");
  });

  it('hides the previous round when no step has access "all"', () => {
    const narrow: Step[] = [
      { worker: "zeta", subtask: "A", access: [] },
      { worker: "beta", subtask: "B", access: [0] },
    ];
    for (const index of [0, 1]) {
      const messages = build({ steps: narrow, index, outputs: ["a"], previousRound });
      expect(messages[0]?.content).not.toContain("Previous round");
    }
  });

  it("adds the assistant prefill only when enabled", () => {
    const on = build({ outputs: [], prefill: true });
    expect(on.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(on[1]?.content).toBe(WORKER_PREFILL);
    const off = build({ outputs: [], prefill: false });
    expect(off.map((m) => m.role)).toEqual(["user"]);
  });

  it("numbers an agent by its worker's place in workerIds, so a reordered pool renumbers it", () => {
    const reordered = ["alpha", "delta", "zeta", "beta", "gamma"];
    const text = build({ workerIds: reordered, index: 1 })[0]?.content ?? "";
    expect(text).toContain(
      "<Subtask assigned to Agent 0>\nFactor 91.\n</Subtask assigned to Agent 0>",
    );
    expect(text).toContain("<Agent 0 response>\n91 = 7 * 13\n</Agent 0 response>");
    expect(text).not.toContain("Agent 3");
    const prior = build({ workerIds: reordered, previousRound })[0]?.content ?? "";
    expect(prior).toContain(
      "<Previous round Agent 4 response>\n91 is prime.\n</Previous round Agent 4 response>",
    );
  });

  it('tags a step whose worker left the pool as Agent "?", never with a number it does not have', () => {
    const text = build({ workerIds: ["beta"], index: 1 })[0]?.content ?? "";
    expect(text).toContain("<Agent ? response>\n91 = 7 * 13\n</Agent ? response>");
    expect(text).not.toContain("Agent -1");
  });

  it("folds the prefill into the user message for a model that cannot continue an assistant message", () => {
    const folded = build({ outputs: [], prefill: "folded" });
    expect(folded.map((m) => m.role)).toEqual(["user"]);
    const plain = build({ outputs: [] });
    expect(folded[0]?.content).toBe(
      `${plain[0]?.content}\n\nBegin your reply with this sentence: "${WORKER_PREFILL}"`,
    );
    expect(build({ outputs: [], prefill: "none" })).toEqual(plain);
  });

  it("gives in-browser workers the folded prefill and API workers the assistant one", () => {
    expect(prefillModeOf({ kind: "webllm", prefill: true })).toBe("folded");
    expect(prefillModeOf({ kind: "openai", prefill: true })).toBe("assistant");
    expect(prefillModeOf({ kind: "webllm", prefill: false })).toBe("none");
    expect(prefillModeOf(undefined)).toBe("none");
  });

  it("throws on a step index outside the workflow, which is a bug in the caller", () => {
    expect(() => build({ index: 3 })).toThrow(new RangeError("No step 3 in a workflow of 3"));
  });

  it("trims the text inside each tag, so an answer's stray blank lines do not widen the prompt", () => {
    const text = content(1, { outputs: ["\n\n  91 = 7 * 13  \n"] });
    expect(text).toContain("<Agent 3 response>\n91 = 7 * 13\n</Agent 3 response>");
  });

  // docs/protocol.md §1.5: the preamble says the worker solves one subtask of a larger task, that
  // other agents' subtasks and responses may be shown in tags, and to use them but check them for
  // mistakes.
  it("opens with the preamble docs/protocol.md §1.5 describes", () => {
    const words = WORKER_PREAMBLE.replace(/\s+/g, " ");
    expect(words).toMatch(/^You are one member of a team of AI agents working on a larger task/);
    expect(words).toContain("you are responsible for one subtask of it.");
    expect(words).toContain(
      "Subtasks given to other agents and their responses may also be shown, inside tags.",
    );
    expect(words).toContain("check it for mistakes rather than trusting it");
    expect(words).toMatch(/carry out your own subtask\.$/);
  });

  it("offers a prefill that opens a step-by-step answer (docs/protocol.md §1.5)", () => {
    expect(WORKER_PREFILL).toMatch(/step by step/);
  });
});

describe("roundSeesPrevious", () => {
  it('is true exactly when some step has access "all"', () => {
    expect(roundSeesPrevious(steps)).toBe(true);
    expect(roundSeesPrevious([{ worker: "zeta", subtask: "A", access: "all" }])).toBe(true);
    expect(roundSeesPrevious([{ worker: "zeta", subtask: "A", access: [] }])).toBe(false);
    expect(roundSeesPrevious([])).toBe(false);
  });
});
