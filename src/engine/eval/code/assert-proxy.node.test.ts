/**
 * Assert-style tests through the proxy in the Node sandbox: the test program runs in its own
 * interpreter, the answer's function in another, and no assert ever runs beside the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeSandbox } from "../../../node/sandbox/process.ts";
import { createCodeScorer } from "./scorer.ts";

const sandbox = createNodeSandbox();
const scorer = createCodeScorer({ sandbox, limits: { timeMs: 3000 } });
const signal = new AbortController().signal;
const fence = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const score = (answer: string, tests: unknown) =>
  scorer.score(answer, { question: "q", tests }, signal);

// HumanEval's shape: check(candidate), called as the evaluation harness calls it; random calls
// as HumanEval/53's test makes them (no seed of its own).
const CHECK = {
  style: "asserts",
  name: "add",
  program: [
    "import random",
    "def check(candidate):",
    "    assert candidate(2, 3) == 5",
    "    assert candidate(2 ** 70, 1) == 2 ** 70 + 1",
    "    assert candidate((1,), (2,)) == (1, 2)",
    "    for _ in range(5):",
    "        x, y = random.randint(0, 1000), random.randint(0, 1000)",
    "        assert candidate(x, y) == x + y",
    "check(add)",
  ].join("\n"),
};

beforeAll(() => sandbox.warm(), 120_000);
afterAll(() => sandbox.dispose());

describe("the assert proxy in the Node sandbox", { timeout: 60_000 }, () => {
  it("passes a right function and fails a wrong one, with exact types both ways", async () => {
    const right = await score(fence("def add(a, b):\n    return a + b"), CHECK);
    expect(right.correct, right.reason).toBe(true);
    expect(right.details).toMatchObject({ calls: 8 });
    // Rounds past 2^53: wrong only to a test that sees the exact integer.
    const rounded = await score(
      fence("def add(a, b):\n    return a + b if type(a) is tuple else int(float(a) + b)"),
      CHECK,
    );
    expect(rounded.correct).toBe(false);
    expect(rounded.reason).toMatch(/the test failed: AssertionError/);
  });

  it("never runs an assert beside the answer: a value that claims to equal anything fails", async () => {
    // In the answer's interpreter this object equals everything; it cannot cross as a plain value.
    const cheat =
      "class Any:\n    def __eq__(self, o):\n        return True\ndef add(a, b):\n    return Any()";
    const r = await score(fence(cheat), CHECK);
    expect(r.correct).toBe(false);
  });

  it("runs MBPP's assert lines calling the function by name, and counts an exception as a failure", async () => {
    const mbpp = {
      style: "asserts",
      name: "first_even",
      program:
        "assert first_even([1, 3, 4]) == 4\nassert first_even([2]) == 2\nassert math.isclose(first_even([1.5, 6.0]), 6.0)",
    };
    const right = await score(
      fence("def first_even(xs):\n    return next(x for x in xs if x % 2 == 0)"),
      mbpp,
    );
    expect(right.correct, right.reason).toBe(true);
    const raises = await score(fence("def first_even(xs):\n    return xs[5]"), mbpp);
    expect(raises.correct).toBe(false);
    expect(raises.reason).toMatch(/IndexError/);
  });

  it("refuses what it cannot pass exactly (a keyword argument), as unscorable", async () => {
    const r = await score(fence("def add(a, b):\n    return a + b"), {
      style: "asserts",
      name: "add",
      program: "assert add(a=1, b=2) == 3",
    });
    expect(r.correct).toBeNull();
    expect(r.reason).toMatch(/keyword arguments/);
  });
});
