// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emptyRecord, stepRecord } from "../../engine/run/record.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import { useStudio } from "../../state/store.ts";
import { AnswerPanel } from "./AnswerPanel.tsx";

const initial = useStudio.getState();
const seed = (patch: Partial<RunRecord>) =>
  useStudio.setState({ record: { ...emptyRecord(), ...patch } });

beforeEach(() => useStudio.setState(initial, true));
afterEach(cleanup);

describe("AnswerPanel", () => {
  it("says where the answer will appear before a run", () => {
    render(<AnswerPanel />);
    expect(screen.getByTestId("no-answer").textContent).toMatch(/last step's answer appears here/);
    expect(screen.queryByTestId("final-answer")).toBeNull();
  });

  it("renders the answer as Markdown with code blocks", () => {
    seed({ status: "done", answer: "The answer is **42**.\n\n```py\nprint(6 * 7)\n```" });
    const { container } = render(<AnswerPanel />);
    const answer = screen.getByTestId("final-answer");
    expect(answer.querySelector("strong")?.textContent).toBe("42");
    expect(answer.querySelector("pre code")?.textContent).toContain("print(6 * 7)");
    expect(container.textContent).not.toContain("**42**");
  });

  it("shows script in an answer as text", () => {
    seed({ status: "done", answer: "<script>window.__pwned = 1</script>" });
    render(<AnswerPanel />);
    const answer = screen.getByTestId("final-answer");
    expect(answer.querySelector("script")).toBeNull();
    expect(answer.textContent).toContain("<script>");
  });

  it("says when the budget stopped a later round, under the answer that stands", () => {
    seed({ status: "done", endReason: "budget", answer: "Round 1's answer." });
    render(<AnswerPanel />);
    expect(screen.getByTestId("final-answer").textContent).toBe("Round 1's answer.");
    expect(screen.getByTestId("end-reason").textContent).toBe(
      "The run reached its budget of model calls.",
    );
    cleanup();
    seed({ status: "done", endReason: "no_rounds", answer: "A single round's answer." });
    render(<AnswerPanel />);
    expect(screen.queryByTestId("end-reason")).toBeNull();
  });

  it("says why a run with rounds ended: accepted, or the round cap", () => {
    const round = (index: number) => ({
      index,
      plan: null,
      lists: null,
      steps: [
        {
          ...stepRecord({ pool: [] }, { worker: 0, subtask: "s", access: [] }, 0),
          status: "done" as const,
        },
      ],
      answer: "a",
      accepted: false,
    });
    seed({
      status: "done",
      endReason: "accepted",
      answer: "Round 1's answer.",
      rounds: [round(0)],
    });
    render(<AnswerPanel />);
    expect(screen.getByTestId("end-reason").textContent).toBe(
      "The Conductor accepted the answer of round 1.",
    );
    cleanup();
    seed({
      status: "done",
      endReason: "round_cap",
      answer: "Round 2's answer.",
      rounds: [round(0), round(1)],
    });
    render(<AnswerPanel />);
    expect(screen.getByTestId("end-reason").textContent).toBe(
      "Stopped after 2 rounds: the cap on refinement rounds.",
    );
  });

  it("says why there is no answer", () => {
    seed({ status: "cancelled", endReason: "cancelled" });
    render(<AnswerPanel />);
    expect(screen.getByTestId("no-answer").textContent).toBe("The run was cancelled.");
    cleanup();
    seed({ status: "failed", endReason: "step_error" });
    render(<AnswerPanel />);
    expect(screen.getByTestId("no-answer").textContent).toMatch(/A step failed/);
  });
});
