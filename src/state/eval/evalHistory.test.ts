import { describe, expect, it } from "vitest";
import { verdictOf } from "./evalHistory.ts";

describe("verdictOf (History's word for an item)", () => {
  it("calls an item whose call failed errored, never unscored", () => {
    const error = { stage: "worker" as const, code: "http_error", message: "HTTP 500" };
    expect(verdictOf({ correct: null, error })).toBe("errored");
    expect(verdictOf({ correct: null, error: null })).toBe("unscored");
    expect(verdictOf({ correct: true, error: null })).toBe("correct");
    expect(verdictOf({ correct: false, error: null })).toBe("wrong");
  });
});
