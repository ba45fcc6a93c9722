// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { EvalResultSchema } from "../../engine/eval/schema.ts";
import { CodeResults } from "./CodeResults.tsx";

afterEach(cleanup);

/** A wrong answer whose exception message and output carry terminal escapes (OSC title, erase line). */
const HOSTILE = EvalResultSchema.parse({
  item: "q1",
  strategy: "single:w",
  repeat: 0,
  correct: false,
  score: 0,
  answer: "x",
  expected: null,
  tokens: 0,
  cost: 0,
  latencyMs: 1,
  runId: "r",
  code: {
    passed: 0,
    total: 1,
    timeMs: 3,
    firstFailure: {
      index: 0,
      verdict: "runtime_error",
      input: "1\n",
      expected: "2\n",
      actual: "\x1b[2K\rall tests passed",
      error: "\x1b]0;pwned\x07Evil\u202eError: boom",
    },
  },
});

describe("CodeResults", () => {
  it("shows the program's own text with its control characters escaped, never raw", () => {
    render(<CodeResults results={[HOSTILE]} />);
    const row = screen.getByTestId("code-result-q1-single:w");
    const text = row.textContent ?? "";
    expect(text).toContain("(\\x1b]0;pwned\\x07Evil\\u202eError: boom)");
    expect(text).toContain("got \\x1b[2K\\x0dall tests passed");
    for (const raw of ["\x1b", "\x07", "\r", "\u202e"]) expect(text).not.toContain(raw);
  });
});
