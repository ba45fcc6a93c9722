import { describe, expect, it } from "vitest";
import { EvalResultSchema } from "../../engine/eval/schema.ts";
import { verdictOf } from "./ItemView.tsx";

const result = (patch: Record<string, unknown>) =>
  EvalResultSchema.parse({
    item: "q1",
    strategy: "conductor",
    repeat: 0,
    correct: null,
    score: 0,
    answer: "",
    expected: "4",
    tokens: 0,
    cost: 0,
    latencyMs: 1,
    runId: "r1",
    ...patch,
  });

describe("verdictOf", () => {
  it("says an errored item errored, with the error, not as a scorer's verdict", () => {
    const v = verdictOf(
      result({
        error: { stage: "worker", code: "http_error", message: "HTTP 500 from the worker" },
      }),
    );
    expect(v.tone).toBe("error");
    expect(v.text).toMatch(/^Errored: a call failed, so no scorer judged it/);
    expect(v.why).toBe("the error: HTTP 500 from the worker");
  });

  it("gives a scored item's reason as the scorer's", () => {
    const v = verdictOf(result({ correct: false, score: 0, reason: "expected 4, got 5" }));
    expect(v).toEqual({ text: "Wrong", tone: "wrong", why: "the scorer: expected 4, got 5" });
    expect(verdictOf(result({ correct: true, score: 1 })).why).toBeNull();
  });
});
