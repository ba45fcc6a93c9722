import { describe, expect, it } from "vitest";
import { ENDING_TEXT, ERROR_MESSAGES, EndReason, EndReasonSchema, ErrorCode } from "../errors.ts";
import { finish, finishFor } from "./ending.ts";
import type { WorkflowOutcome } from "./execute.ts";

const outcome = (o: Partial<WorkflowOutcome>): WorkflowOutcome => ({
  status: "failed",
  outcomes: [],
  answer: null,
  budgetExhausted: false,
  ...o,
});

describe("finish: the one constructor of a run's end", () => {
  it("derives the status from the reason", () => {
    const at = 5;
    const status = (r: Parameters<typeof finish>[0]) => finish(r, { at, answer: "a" }).status;
    expect(status("planned")).toBe("planned");
    expect(status("accepted")).toBe("done");
    expect(status("round_cap")).toBe("done");
    expect(status("no_rounds")).toBe("done");
    expect(status("plan_error")).toBe("failed");
    expect(status("step_error")).toBe("failed");
    expect(status("cancelled")).toBe("cancelled");
    expect(status("no_conductor")).toBe("failed");
    expect(status("setup_error")).toBe("failed");
  });

  it("has one budget rule: done when an earlier answer stands, failed when none does", () => {
    expect(finish("budget", { at: 1, answer: "42" })).toEqual({
      type: "run_finish",
      at: 1,
      status: "done",
      reason: "budget",
      answer: "42",
      message: ENDING_TEXT.budget,
    });
    expect(finish("budget", { at: 1, answer: null }).status).toBe("failed");
    // An empty answer is an answer.
    expect(finish("budget", { at: 1, answer: "" }).status).toBe("done");
  });

  it("says why in the table's words where the reason needs them, and keeps a given detail", () => {
    for (const reason of ["plan_error", "step_error", "no_conductor", "setup_error"] as const)
      expect(finish(reason, { at: 1, answer: null }).message).toBe(ENDING_TEXT[reason]);
    for (const reason of ["accepted", "round_cap", "no_rounds", "cancelled", "planned"] as const)
      expect(finish(reason, { at: 1, answer: null })).not.toHaveProperty("message");
    expect(finish("plan_error", { at: 1, answer: null, message: "bad lists" }).message).toBe(
      "bad lists",
    );
  });

  it("never gives a planned run an answer", () => {
    expect(finish("planned", { at: 1, answer: "x" }).answer).toBeNull();
    expect(finish("accepted", { at: 1, answer: "x" }).answer).toBe("x");
  });

  it("has a text for every reason", () => {
    for (const reason of EndReasonSchema.options) expect(ENDING_TEXT[reason]).toMatch(/\.$/);
  });

  it("names every reason and error code by the string stored and exported (old files still read)", () => {
    expect(EndReasonSchema.options).toEqual(Object.keys(ENDING_TEXT));
    for (const reason of EndReasonSchema.options) expect(EndReason[reason]).toBe(reason);
    for (const code of Object.keys(ERROR_MESSAGES))
      expect(ErrorCode[code as keyof typeof ErrorCode]).toBe(code);
    expect(EndReasonSchema.parse("step_error")).toBe(EndReason.step_error);
  });
});

describe("finishFor: a workflow that did not end done", () => {
  it("ends on the budget first, then a cancel, else a failed step", () => {
    const both = outcome({ status: "cancelled", budgetExhausted: true });
    expect(finishFor(both, 3, "earlier")).toMatchObject({ reason: "budget", status: "done" });
    expect(finishFor(outcome({ budgetExhausted: true }), 3, null)).toMatchObject({
      reason: "budget",
      status: "failed",
    });
    expect(finishFor(outcome({ status: "cancelled" }), 3, "a")).toMatchObject({
      reason: "cancelled",
      status: "cancelled",
      answer: "a",
    });
    expect(finishFor(outcome({}), 3, null)).toMatchObject({
      reason: "step_error",
      status: "failed",
      message: ENDING_TEXT.step_error,
      at: 3,
    });
  });
});
