/**
 * EvalPlus items (HumanEval+, MBPP+) through the code scorer in the Node sandbox: expected values
 * from the canonical solution, arguments in their exact types, EvalPlus's tolerance, and a test
 * program that is read, never run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeSandbox } from "../../../node/sandbox/process.ts";
import type { Sandbox } from "./pool.ts";
import type { CodeScoreDetails } from "./scorer.ts";
import { createCodeScorer } from "./scorer.ts";

const sandbox = createNodeSandbox();
let runs = 0;
// Counts the trusted runs (the reader's), to see the expected values computed once.
const counted: Sandbox = {
  ...sandbox,
  run: (...a) => {
    runs += 1;
    return sandbox.run(...a);
  },
};
const scorer = createCodeScorer({ sandbox: counted, limits: { timeMs: 3000 } });
const signal = new AbortController().signal;

/** HumanEval+'s test program as EvalPlus's to_original_fmt.py writes it. */
const humanevalTest = (inputs: string, results: string, atol = "0") => `
import numpy as np

def is_floats(x) -> bool:
    return isinstance(x, float)

def assertion(out, exp, atol):
    assert out == exp

def check(candidate):
    inputs = ${inputs}
    results = ${results}
    for i, (inp, exp) in enumerate(zip(inputs, results)):
        assertion(candidate(*inp), exp, ${atol})
`;

/** MBPP+'s: top-level inputs, the assertion naming the function. */
const mbppTest = (name: string, inputs: string) => `
import numpy as np
from math import inf

def assertion(out, exp, atol):
    assert out == exp

inputs = ${inputs}
results = ["the results column is not read"]
for i, (inp, exp) in enumerate(zip(inputs, results)):
    assertion(${name}(*inp), exp, 0)
`;

const fence = (code: string) => `My solution:\n\`\`\`python\n${code}\n\`\`\``;
const score = (answer: string, tests: unknown) =>
  scorer.score(answer, { question: "q", tests }, signal);
const details = (r: { details?: Record<string, unknown> }) =>
  r.details as unknown as CodeScoreDetails;

const HALF = {
  style: "evalplus",
  dataset: "humaneval",
  task: "HumanEval/900",
  entryPoint: "halve",
  solution: "def halve(xs, big):\n    return [x / 2 for x in xs], big + 1\n",
  // 2**70 + 1, a float list and a tuple: none of them survives plain JSON as itself.
  test: humanevalTest("[[[1, 3], 1180591620717411303425], [[0.5], -1], [(), 0]]", "[]"),
};

beforeAll(() => sandbox.warm(), 120_000);
afterAll(() => sandbox.dispose());

describe("EvalPlus items in the Node sandbox", { timeout: 60_000 }, () => {
  it("scores a right program right and a wrong one wrong, arguments and values exact", async () => {
    const right = await score(
      fence("def halve(xs, big):\n    return [x * 0.5 for x in xs], big + 1"),
      HALF,
    );
    expect(right.correct, right.reason).toBe(true);
    expect(details(right)).toMatchObject({ passed: 3, total: 3 });
    // Exact past 2^53: an answer rounding through a float is wrong.
    const rounded = await score(
      fence("def halve(xs, big):\n    return [x / 2 for x in xs], int(float(big)) + 1"),
      HALF,
    );
    expect(rounded.correct).toBe(false);
    expect(rounded.reason).toMatch(/wrong answer on test 1 of 3/);
    // A list where the canonical returns a tuple is not equal (Python's ==).
    const list = await score(
      fence("def halve(xs, big):\n    return [[x / 2 for x in xs], big + 1]"),
      HALF,
    );
    expect(list.correct).toBe(false);
  });

  it("compares floats within EvalPlus's tolerance (1e-6 when the task sets none), and only floats", async () => {
    const tests = {
      ...HALF,
      task: "HumanEval/903",
      entryPoint: "mean",
      solution: "def mean(xs):\n    return sum(xs) / len(xs)\n",
      test: humanevalTest("[[[1, 2]], [[0.1, 0.2, 0.3]]]", "[]"),
    };
    const close = await score(fence("def mean(xs):\n    return sum(xs) / len(xs) + 1e-7"), tests);
    expect(close.correct, close.reason).toBe(true);
    const far = await score(fence("def mean(xs):\n    return sum(xs) / len(xs) + 1e-5"), tests);
    expect(far.correct).toBe(false);
    // A tuple holding floats is not "floats" to EvalPlus: it must be exact.
    const pair = {
      ...tests,
      task: "HumanEval/904",
      solution: "def mean(xs):\n    return (sum(xs) / len(xs), 0)\n",
    };
    const near = await score(
      fence("def mean(xs):\n    return (sum(xs) / len(xs) + 1e-9, 0)"),
      pair,
    );
    expect(near.correct).toBe(false);
    expect(
      (await score(fence("def mean(xs):\n    return (sum(xs) / len(xs), 0)"), pair)).correct,
    ).toBe(true);
  });

  it("computes the expected values once per task, and reads the test program without running it", async () => {
    const before = runs;
    const tests = {
      ...HALF,
      task: "HumanEval/901",
      // Were this program run, the reader would end before returning any input.
      test: `raise SystemExit(3)\n${HALF.test}`,
    };
    const a = await score(
      fence("def halve(xs, big):\n    return [x / 2 for x in xs], big + 1"),
      tests,
    );
    const b = await score(
      fence("def halve(xs, big):\n    return [x / 2 for x in xs], big + 1"),
      tests,
    );
    expect([a.correct, b.correct]).toEqual([true, true]);
    expect(runs - before).toBe(1);
  });

  it("refuses inputs that are not literals: nothing in the test program is evaluated", async () => {
    const tests = {
      ...HALF,
      task: "HumanEval/902",
      test: humanevalTest("[[__import__('os').getpid(), 1]]", "[]"),
    };
    const r = await score(fence("def halve(xs, big):\n    return xs"), tests);
    expect(r.correct).toBeNull();
    expect(r.reason).toMatch(/EvalPlus cases: .*not a literal/);
  });

  it("passes MBPP+ tuples as tuples and applies its set-equality oracle", async () => {
    const tests = {
      style: "evalplus",
      dataset: "mbpp",
      task: "Mbpp/2",
      solution: "def similar_elements(a, b):\n    return tuple(set(a) & set(b))\n",
      test: mbppTest(
        "similar_elements",
        "[[(3, 4, 5, 6), (5, 7, 4, 10)], [(1, 2), (2, 1)], [(inf, -1), (-1,)]]",
      ),
    };
    // A memo keyed by the arguments fails on lists (unhashable): they must arrive as tuples.
    const right = fence(
      "_memo = {}\ndef similar_elements(a, b):\n    if (a, b) not in _memo:\n        _memo[a, b] = tuple(sorted(set(a) & set(b)))\n    return _memo[a, b]",
    );
    const r = await score(right, tests);
    expect(r.correct, r.reason).toBe(true);
    const wrong = await score(fence("def similar_elements(a, b):\n    return (a[0],)"), tests);
    expect(wrong.correct).toBe(false);
  });
});
