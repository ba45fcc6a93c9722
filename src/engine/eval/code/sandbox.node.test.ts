/**
 * The code scorer against the Node sandbox as the CLI makes it (python3 confined by bubblewrap on
 * Linux). One sandbox serves the whole file; the hang test uses a 1 s limit. Hostile answers have
 * their own file (sandbox.attacks.node.test.ts); Pyodide's own runtime, the unconfined one, has
 * sandbox.pyodide.node.test.ts.
 */
import { CODE_ANSWERS, CODE_PASS_AT_1 } from "../../../../e2e/fixtures/code-answers.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_CODE } from "../dataset/sample-code.ts";
import { createNodeSandbox } from "../../../node/sandbox/process.ts";
import type { CodeScoreDetails } from "./scorer.ts";
import { createCodeScorer } from "./scorer.ts";
import { DEFAULT_LIMITS } from "./sandbox-types.ts";

const sandbox = createNodeSandbox();
const scorer = createCodeScorer({ sandbox, limits: { timeMs: 3000 } });
const signal = new AbortController().signal;

const ADD_STDIO = JSON.stringify({
  style: "stdio",
  cases: [
    { input: "1 2\n", output: "3\n" },
    { input: "10 -4\n", output: "6" },
  ],
});
const ADD_FUNCTION = {
  style: "function",
  name: "add",
  cases: [
    { args: [1, 2], expected: 3 },
    { args: [0.1, 0.2], expected: 0.3 },
  ],
};

const fence = (code: string) => `Here is my solution.\n\n\`\`\`python\n${code}\n\`\`\`\n`;
const score = (answer: string, tests: unknown) =>
  scorer.score(answer, { question: "q", tests }, signal);
const details = (r: { details?: Record<string, unknown> }) =>
  r.details as unknown as CodeScoreDetails;

beforeAll(() => sandbox.warm(), 120_000);
afterAll(() => sandbox.dispose());

describe("code scorer in the Node sandbox (confined python3)", { timeout: 60_000 }, () => {
  it("passes a correct stdin/stdout program, fenced", async () => {
    const r = await score(fence("a, b = map(int, input().split())\nprint(a + b)   "), ADD_STDIO);
    expect(r).toMatchObject({ correct: true, score: 1 });
    expect(details(r)).toMatchObject({ passed: 2, total: 2, firstFailure: null });
    expect(r.extracted).toBe("a, b = map(int, input().split())\nprint(a + b)");
  });

  it("accepts an unfenced program and reads stdin through sys.stdin.buffer and open(0)", async () => {
    const viaBuffer = "import sys\nprint(sum(map(int, sys.stdin.buffer.read().split())))";
    expect((await score(viaBuffer, ADD_STDIO)).correct).toBe(true);
    const viaFd = "print(sum(int(x) for x in open(0).read().split()))";
    expect((await score(viaFd, ADD_STDIO)).correct).toBe(true);
  });

  it("reports a wrong answer with the first failing test's expected and actual output", async () => {
    const r = await score(fence("a, b = map(int, input().split())\nprint(a - b)"), ADD_STDIO);
    expect(r.correct).toBe(false);
    expect(details(r)).toMatchObject({ passed: 0, total: 2 });
    expect(details(r).firstFailure).toMatchObject({
      index: 0,
      verdict: "wrong_answer",
      input: "1 2\n",
      expected: "3\n",
      actual: "-1\n",
    });
    expect(r.reason).toBe("wrong answer on test 1 of 2");
  });

  it("scores function cases, with float tolerance and a class method", async () => {
    const ok = await score(fence("def add(a, b):\n    return a + b"), ADD_FUNCTION);
    expect(ok).toMatchObject({ correct: true });
    const wrong = await score(fence("def add(a, b):\n    return a * b"), ADD_FUNCTION);
    expect(details(wrong)).toMatchObject({ passed: 0, total: 2 });
    expect(details(wrong).firstFailure).toMatchObject({
      args: "[1,2]",
      expected: "3",
      actual: "2",
    });
    const method = {
      style: "function",
      name: "Solution.twoSum",
      cases: [{ args: [[2, 7, 11, 15], 9], expected: [0, 1] }],
    };
    const code = "class Solution:\n    def twoSum(self, nums, t):\n        return (0, 1)";
    expect((await score(fence(code), method)).correct).toBe(true);
  });

  it("a syntax error fails without running the other tests", async () => {
    const r = await score(fence("def f(:\n    pass"), ADD_STDIO);
    expect(r.correct).toBe(false);
    expect(details(r)).toMatchObject({ passed: 0, skipped: 1 });
    expect(r.reason).toMatch(/^syntax error on test 1 of 2: SyntaxError/);
  });

  it("an exception is a runtime error with its message; the traceback names the program", async () => {
    const r = await score(fence("print(1 // 0)"), ADD_STDIO);
    // Python 3.11 says "integer division or modulo by zero", Pyodide's 3.14 "division by zero"
    expect(r.reason).toMatch(/^runtime error on test 1 of 2: ZeroDivisionError: .*by zero$/);
    const run = await sandbox.run({ mode: "stdio", code: "1/0", stdin: "" }, DEFAULT_LIMITS);
    expect(run.ok && run.outcome.stderr).toMatch(/File "<program>", line 1/);
    expect(run.ok && run.outcome.stderr).not.toMatch(/<exec>/);
  });

  it("answers with no code are wrong with 'no code found'", async () => {
    for (const answer of [
      "The answer is 3.",
      "```cpp\nint main(){}\n```",
      "The result = 3 obviously",
    ])
      expect(await score(answer, ADD_STDIO)).toMatchObject({
        correct: false,
        reason: "no code found",
        extracted: null,
      });
  });

  it("stops an infinite loop at the limit, and the next program runs in a fresh interpreter", async () => {
    const starts = sandbox.status().starts;
    const loads = sandbox.status().lastLoadMs;
    const hang = createCodeScorer({ sandbox, limits: { timeMs: 1000 } });
    const r = await hang.score(
      fence("while True:\n    pass"),
      { question: "q", tests: ADD_STDIO },
      signal,
    );
    expect(r.correct).toBe(false);
    expect(details(r)).toMatchObject({ passed: 0, skipped: 1, timeMs: 1000 });
    expect(r.reason).toBe("time limit exceeded on test 1 of 2");
    const next = await score(fence("print(sum(map(int, input().split())))"), ADD_STDIO);
    expect(next.correct).toBe(true);
    // The killed process was replaced (off the critical path: another one took the next answer).
    expect(sandbox.status().starts).toBe(starts + 1);
    expect(loads).not.toBeNull();
  });

  it("stops a program that prints without end at the output limit", async () => {
    const r = await score(fence("while True:\n    print('x' * 100)"), ADD_STDIO);
    expect(details(r).firstFailure).toMatchObject({ verdict: "output_limit" });
    expect(details(r).firstFailure?.actual.length).toBeLessThan(400);
    const caught = "try:\n    while True: print('y' * 100)\nexcept BaseException:\n    print(3)";
    expect(details(await score(fence(caught), ADD_STDIO)).firstFailure?.verdict).toBe(
      "output_limit",
    );
  });

  it("gives programs no way into JavaScript, the network or the host's environment", async () => {
    const probes = [
      "import js",
      "import pyodide_js",
      "from pyodide.ffi import to_js",
      "import socket\nsocket.socket().connect(('127.0.0.1', 80))",
      "import urllib.request\nurllib.request.urlopen('http://127.0.0.1/')",
      "import ctypes",
    ];
    for (const code of probes) {
      const run = await sandbox.run({ mode: "stdio", code, stdin: "" }, DEFAULT_LIMITS);
      expect(run.ok && run.outcome).toMatchObject({ status: "runtime_error" });
      expect(run.ok && run.outcome.error).toMatch(
        /ImportError: \S+ is not available in the code sandbox/,
      );
    }
    process.env.CS_SANDBOX_SECRET = "sk-should-not-leak";
    try {
      const look = [
        "import sys, os, gc",
        "print(sorted(k for k in sys.modules if k.split('.')[0] in ('js', 'pyodide', 'pyodide_js', '_pyodide')))",
        "print(hasattr(gc, 'get_objects'), hasattr(gc, 'get_referrers'))",
        "print('CS_SANDBOX_SECRET' in os.environ, os.listdir('.'))",
        "open('scratch.txt', 'w').write('hi')",
      ].join("\n");
      const run = await sandbox.run({ mode: "stdio", code: look, stdin: "" }, DEFAULT_LIMITS);
      expect(run.ok && run.outcome.stdout).toBe("[]\nFalse False\nFalse []\n");
    } finally {
      delete process.env.CS_SANDBOX_SECRET;
    }
  });

  it("counts every output path against the output limit, and a huge returned value too", async () => {
    const flood = (write: string) => `import os, sys\n${write}\nprint(3)`;
    for (const write of [
      "open('/dev/stdout', 'w').write('x' * 3_000_000)",
      "open('/proc/self/fd/2', 'w').write('x' * 3_000_000)",
      "os.write(2, b'x' * 3_000_000)",
      "sys.__stderr__.write('x' * 3_000_000)",
    ]) {
      const r = await score(fence(flood(write)), ADD_STDIO);
      expect(details(r).firstFailure?.verdict, write).toBe("output_limit");
    }
    // no terminal to write past the limit to: the program fails instead of scoring right
    const tty = await score(
      fence(flood("open('/dev/tty', 'w').write('x' * 20_000_000)")),
      ADD_STDIO,
    );
    expect(tty.correct).toBe(false);
    const big = { style: "function", name: "f", cases: [{ args: [], expected: "x" }] };
    // a limit wide enough for a busy machine: the verdict is what is tested
    const slow = createCodeScorer({ sandbox, limits: { timeMs: 30_000 } });
    const answer = fence("def f():\n    return 'x' * 60_000_000");
    const r = await slow.score(answer, { question: "q", tests: big }, signal);
    expect(r.reason).toMatch(/^output limit exceeded on test 1 of 1/);
  });

  it("keeps integers of any size exact, in the tests' arguments and expected values", async () => {
    const tests = `{"style":"function","name":"f","cases":[{"args":[9007199254740993],"expected":18014398509481987}]}`;
    const right = await score(fence("def f(n):\n    return 2 * n + 1"), tests);
    expect(right.correct, right.reason).toBe(true);
    const offByOne = await score(fence("def f(n):\n    return 2 * n"), tests);
    expect(offByOne.correct).toBe(false);
    expect(details(offByOne).firstFailure).toMatchObject({
      args: "[9007199254740993]",
      expected: "18014398509481987",
      actual: "18014398509481986",
    });
    const huge = `{"style":"function","name":"f","cases":[{"args":[],"expected":${"9".repeat(5000)}}]}`;
    const r = await score(fence(`def f():\n    return 10 ** 5000 - 1`), huge);
    expect(r.correct, r.reason).toBe(true);
  });

  it("starts every program of its own from a pristine interpreter", async () => {
    const spoil = [
      "import builtins, sys, json",
      "builtins.print = None",
      "sys.setrecursionlimit(50)",
      "json.spoiled = True",
      "open('left-behind.txt', 'w').write('x')",
    ].join("\n");
    await sandbox.run({ mode: "stdio", code: spoil, stdin: "" }, DEFAULT_LIMITS);
    const check =
      "import sys, os, json\nprint(sys.getrecursionlimit() >= 1000, os.listdir('.'), hasattr(json, 'spoiled'))";
    const run = await sandbox.run({ mode: "stdio", code: check, stdin: "" }, DEFAULT_LIMITS);
    expect(run.ok && run.outcome.stdout).toBe("True [] False\n");
  });

  it("scores the five scripted answers as the browser does (e2e/code-sandbox.spec.ts)", async () => {
    let correct = 0;
    for (const a of CODE_ANSWERS) {
      const scorer = createCodeScorer({ sandbox, limits: a.timeMs ? { timeMs: a.timeMs } : {} });
      const r = await scorer.score(a.answer, { question: a.question, tests: a.tests }, signal);
      expect(r.correct, a.key).toBe(a.correct);
      if (a.reason) expect(r.reason, a.key).toMatch(a.reason);
      if (r.correct) correct += 1;
    }
    expect(correct / CODE_ANSWERS.length).toBe(CODE_PASS_AT_1);
  });

  it("passes reference solutions of the sample code set (so its tests are right)", async () => {
    const solutions: Record<string, string> = {
      "code-01": "print(input()[::-1])",
      "code-02": "input()\nprint(max(map(int, input().split())))",
      "code-03": [
        "for i in range(1, int(input()) + 1):",
        "    print('FizzBuzz' if i % 15 == 0 else 'Fizz' if i % 3 == 0 else 'Buzz' if i % 5 == 0 else i)",
      ].join("\n"),
      "code-04": [
        "def is_palindrome(s):",
        "    t = [c.lower() for c in s if c.isalnum()]",
        "    return t == t[::-1]",
      ].join("\n"),
      "code-05": "def count_vowels(s):\n    return sum(c in 'aeiou' for c in s.lower())",
      "code-06": [
        "class Solution:",
        "    def twoSum(self, nums, target):",
        "        seen = {}",
        "        for j, x in enumerate(nums):",
        "            if target - x in seen:",
        "                return [seen[target - x], j]",
        "            seen[x] = j",
      ].join("\n"),
      "code-07": [
        "from itertools import groupby",
        "def run_length(s):",
        "    return ''.join(f'{k}{len(list(g))}' for k, g in groupby(s))",
      ].join("\n"),
    };
    for (const item of SAMPLE_CODE) {
      const r = await scorer.score(fence(solutions[item.id] ?? ""), item, signal);
      expect(r.correct, `${item.id}: ${r.reason}`).toBe(true);
    }
    // A wrong reading of the FizzBuzz task fails it.
    const wrong = await scorer.score(
      fence("for i in range(1, int(input()) + 1):\n    print('Fizz' if i % 3 == 0 else i)"),
      SAMPLE_CODE[2]!,
      signal,
    );
    expect(wrong.correct).toBe(false);
  });
});
