// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { emptyRecord } from "../../engine/run/record.ts";
import type { PlanRecord } from "../../engine/schema/record.ts";
import { planNow } from "../../state/run/controller.ts";
import type { Phase } from "../../state/slices/run.ts";
import { useStudio } from "../../state/slices/store.ts";
import { ConductorPanel } from "./ConductorPanel.tsx";

vi.mock("../../state/run/controller.ts", () => ({ planNow: vi.fn(() => Promise.resolve()) }));

const initial = useStudio.getState();

function seedPlan(patch: Partial<PlanRecord>, phase: Phase = "idle") {
  const plan: PlanRecord = {
    messages: [],
    raw: "",
    startedAt: 1_000,
    finishedAt: 3_500,
    usage: { promptTokens: 900, completionTokens: 100, estimated: false },
    cost: 0,
    error: null,
    ...patch,
  };
  const record = {
    ...emptyRecord(),
    rounds: [{ index: 0, plan, lists: null, steps: [], answer: null, accepted: false }],
  };
  useStudio.setState({ record, phase });
}

beforeEach(() => useStudio.setState(initial, true));
afterEach(cleanup);

describe("ConductorPanel", () => {
  it("explains itself before any plan", () => {
    render(<ConductorPanel />);
    expect(screen.getByText(/reasoning and plan appear here/)).toBeTruthy();
    expect(screen.queryByTestId("conductor-raw")).toBeNull();
  });

  it("says why a plan was written unconstrained, next to the parsed plan", () => {
    const notice =
      "The plan grammar could not be compiled, so the plan was written unconstrained: EBNF error.";
    seedPlan({ raw: "model_id = [0]", notice });
    render(<ConductorPanel />);
    expect(screen.getByTestId("plan-notice").textContent).toBe(notice);
    expect(screen.getByText("plan parsed")).toBeTruthy();
  });

  it("shows a writing badge and the text so far while planning", () => {
    seedPlan({ raw: "Let me think about model_id", finishedAt: null, usage: null }, "planning");
    render(<ConductorPanel />);
    expect(screen.getByText("writing…")).toBeTruthy();
    expect(screen.queryByText("plan parsed")).toBeNull();
    expect(screen.getByTestId("conductor-raw").textContent).toBe("Let me think about model_id");
  });

  it("says thinking, and shows the reasoning apart, while a reasoning Conductor thinks", () => {
    seedPlan(
      { raw: "", reasoning: "Two steps will do.", finishedAt: null, usage: null },
      "planning",
    );
    render(<ConductorPanel />);
    expect(screen.getByTestId("conductor-activity").textContent).toBe("thinking…");
    expect(screen.getByTestId("conductor-thinking-text").textContent).toBe("Two steps will do.");
    expect(screen.getByTestId("conductor-raw").textContent).toBe("…");
  });

  it("shows a plan retry with its attempt, total and reason", () => {
    const retry = {
      attempt: 2,
      of: 4,
      at: Date.now() + 60_000, // ahead of the clock: the countdown shows the full delay
      delayMs: 3_000,
      code: "server",
      status: 503,
      message: "down",
    };
    seedPlan({ raw: "", finishedAt: null, usage: null, retry }, "planning");
    render(<ConductorPanel />);
    expect(screen.getByTestId("conductor-retry").textContent).toContain(
      "retrying 2 of 4 in 3 s after 503",
    );
    expect(screen.getByTestId("conductor-activity").textContent).toBe("waiting to retry…");
  });

  it("shows the writing badge only while planning", () => {
    seedPlan({ raw: "model_id = [0", finishedAt: null, usage: null }, "idle");
    render(<ConductorPanel />);
    expect(screen.queryByText("writing…")).toBeNull();
  });

  it("shows a parsed plan with its usage and time", () => {
    seedPlan({ raw: "model_id = [0]" });
    render(<ConductorPanel />);
    expect(screen.getByText("plan parsed")).toBeTruthy();
    expect(screen.queryByText("writing…")).toBeNull();
    expect(screen.queryByTestId("plan-error")).toBeNull();
    expect(screen.getByText(/1000 tokens · \$0 · 2\.5 s/)).toBeTruthy();
  });

  it("shows the error, the raw text and a retry for a plan that did not parse", () => {
    const raw = "I think Model id 0 should do it.\nmodel_id = [0]";
    seedPlan({
      raw,
      error: { code: "missing_list", message: "The Conductor wrote no subtasks list." },
    });
    render(<ConductorPanel />);
    expect(screen.getByTestId("plan-error").textContent).toContain(
      "The Conductor wrote no subtasks list.",
    );
    // The badge says it in words; the code is in its tooltip.
    expect(screen.getByTestId("plan-badge").textContent).toBe("could not read the plan");
    expect(screen.getByTestId("plan-badge").getAttribute("title")).toBe("Error code: missing_list");
    expect(screen.queryByText("missing_list")).toBeNull();
    expect(screen.queryByText("plan parsed")).toBeNull();
    expect(screen.getByTestId("conductor-raw").textContent).toBe(raw);
    fireEvent.click(screen.getByRole("button", { name: "Retry planning" }));
    expect(planNow).toHaveBeenCalledTimes(1);
  });

  it("disables retry while something runs", () => {
    seedPlan({ raw: "x", error: { code: "bad", message: "Bad." } }, "running");
    render(<ConductorPanel />);
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Retry planning" }).disabled).toBe(
      true,
    );
  });
});
