// The code scorer inside the evaluation runner, over an in-process fake sandbox (the real Pyodide
// runs in code/sandbox.node.test.ts and the CLI and browser tests): registered as "code", its
// sandbox asked for only when an answer is scored, tests kept with each item's result.
import { describe, expect, it } from "vitest";
import type { ChatBackend } from "../llm/types.ts";
import type { Worker } from "../schema/worker.ts";
import { summingSandbox } from "../../test-support/engine/eval/code/summing-sandbox.ts";
import { collect, evaluation, worker } from "../../test-support/engine/eval/eval-runner.ts";
import { CODE_SCORER_VERSION } from "./code/scorer.ts";
import type { EvalItem } from "./dataset/item-schema.ts";
import { summarise } from "./report.ts";
import { createScorer, defaultScorerId, scorerIds } from "./scorers/registry.ts";

const TESTS = JSON.stringify({
  style: "stdio",
  cases: [
    { input: "1 2\n", output: "3\n" },
    { input: "40 2\n", output: "42\n" },
  ],
});
const ITEMS: EvalItem[] = [
  { id: "a", question: "Add them (a).", tests: TESTS },
  { id: "b", question: "Add them (b).", tests: JSON.parse(TESTS) as unknown },
];
const WORKER: Worker = { ...worker("w"), temperature: 0 };

/** Right on item a, wrong on item b. */
const backend: ChatBackend = {
  label: "w",
  continuesAssistant: false,
  // eslint-disable-next-line @typescript-eslint/require-await -- a scripted stream
  async *stream(req) {
    const text = JSON.stringify(req.messages);
    const code = text.includes("(a)") ? "print(sum(...))" : "print(a * b)";
    yield { type: "delta", text: `Here:\n\`\`\`python\n${code}\n\`\`\`` };
  },
};

const EVALUATION = evaluation([WORKER], {
  name: "code",
  dataset: { name: "code", hash: "h", size: 2 },
  scorer: { id: "code", options: {}, version: 1 },
});

describe("the code scorer in the evaluation", () => {
  it("is registered as code, picked for items with tests, and needs a sandbox", () => {
    expect(scorerIds()).toContain("code");
    expect(defaultScorerId(ITEMS)).toBe("code");
    expect(defaultScorerId([{ expected: "3" }, { expected: "4", tests: "" }])).toBe("math");
    expect(createScorer({ id: "code", options: {} })).toEqual({
      ok: false,
      code: "invalid_scorer",
      message: "The code scorer needs a Python sandbox.",
    });
  });

  it("caps an item's timeLimitMs at 60 s, or at the maxTimeLimitMs the CLI stores", async () => {
    const item = {
      question: "q",
      tests: { style: "stdio", timeLimitMs: 600_000, cases: [{ input: "1 2", output: "3" }] },
    };
    for (const [options, want] of [
      [{}, 60_000],
      [{ maxTimeLimitMs: 300_000 }, 300_000],
      [{ maxTimeLimitMs: 900_000 }, 600_000],
    ] as const) {
      const sandbox = summingSandbox();
      const made = createScorer({ id: "code", options }, { codeSandbox: () => sandbox });
      if (!made.ok) throw new Error(made.message);
      await made.scorer.score("```python\nprint(sum)\n```", item, new AbortController().signal);
      expect(sandbox.limits, JSON.stringify(options)).toEqual([want]);
    }
  });

  it("asks for its sandbox on the first answer only, and keeps the tests with each result", async () => {
    const sandbox = summingSandbox();
    let asked = 0;
    const made = createScorer(
      { id: "code", options: { timeMs: 1500 } },
      { codeSandbox: () => (asked++, sandbox) },
    );
    if (!made.ok) throw new Error(made.message);
    expect(made.scorer).toMatchObject({ id: "code", version: CODE_SCORER_VERSION });
    expect(asked).toBe(0);
    const { outcome, results } = await collect({
      evaluation: EVALUATION,
      items: ITEMS,
      scorer: made.scorer,
      backendFor: () => backend,
    });
    expect(outcome).toMatchObject({ status: "finished", done: 2 });
    expect(asked).toBe(1);
    // Both tests of both items ran (a wrong answer does not stop the remaining tests).
    expect(sandbox.runs).toHaveLength(4);
    expect(sandbox.limits).toEqual([1500, 1500, 1500, 1500]);
    const by = Object.fromEntries(results.map((r) => [r.item, r]));
    expect(by.a).toMatchObject({
      correct: true,
      extracted: "print(sum(...))",
      code: { passed: 2, total: 2, skipped: 0, timeMs: 4, firstFailure: null },
    });
    expect(by.b).toMatchObject({
      correct: false,
      reason: "wrong answer on test 1 of 2",
      code: {
        passed: 0,
        total: 2,
        firstFailure: { index: 0, verdict: "wrong_answer", input: "1 2\n", expected: "3\n" },
      },
    });
    expect(summarise(results, ["single:w"])[0]!.accuracy).toBe(0.5);
  });

  it("leaves items unscored, never wrong, when the sandbox cannot load", async () => {
    const made = createScorer(
      { id: "code", options: {} },
      { codeSandbox: () => Promise.reject(new Error("offline")) },
    );
    if (!made.ok) throw new Error(made.message);
    const r = await made.scorer.score(
      "```python\nprint(1)\n```",
      ITEMS[0]!,
      new AbortController().signal,
    );
    expect(r).toMatchObject({ correct: null, reason: "No Python sandbox: offline" });
  });
});
