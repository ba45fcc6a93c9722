// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { emptyRecord, stepRecord } from "../../engine/run/record.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import { useStudio } from "../../state/slices/store.ts";
import { loadMarkdown } from "../ui/Markdown.tsx";
import { AnswerPanel } from "./AnswerPanel.tsx";

const initial = useStudio.getState();
const seed = (patch: Partial<RunRecord>) =>
  useStudio.setState({ record: { ...emptyRecord(), ...patch } });

beforeAll(async () => {
  await loadMarkdown();
});
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
          ...stepRecord({ pool: [] }, { worker: "w0", subtask: "s", access: [] }, 0),
          status: "done" as const,
          output: `Round ${index + 1}'s answer.`,
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

  it("shows the answer the steps give, not a file's answer field that disagrees", () => {
    const step = (output: string, status: "done" | "failed") => ({
      ...stepRecord({ pool: [] }, { worker: "w0", subtask: "s", access: [] }, 0),
      status,
      output,
    });
    const round = (steps: ReturnType<typeof step>[]) => ({
      index: 0,
      plan: null,
      lists: null,
      steps,
      answer: null,
      accepted: false,
    });
    seed({
      status: "done",
      answer: "A forged answer.",
      rounds: [round([step("First.", "done"), step("The real answer.", "done")])],
    });
    render(<AnswerPanel />);
    expect(screen.getByTestId("final-answer").textContent).toBe("The real answer.");
    cleanup();
    seed({
      status: "done",
      answer: "A forged answer.",
      rounds: [round([step("First.", "done"), step("", "failed")])],
    });
    render(<AnswerPanel />);
    expect(screen.queryByTestId("final-answer")).toBeNull();
  });

  it("marks the previous answer stale while a new run is under way, and copies it", () => {
    seed({ status: "done", answer: "Old answer." });
    render(<AnswerPanel />);
    expect(screen.queryByTestId("answer-stale")).toBeNull();
    act(() => {
      useStudio.setState({ phase: "running", record: { ...emptyRecord(), status: "running" } });
    });
    expect(screen.getByTestId("final-answer").textContent).toBe("Old answer.");
    expect(screen.getByTestId("final-answer").dataset.stale).toBe("true");
    expect(screen.getByTestId("answer-stale").textContent).toMatch(/previous run/);
    act(() => {
      useStudio.setState({ phase: "idle", record: { ...emptyRecord(), answer: "New answer." } });
    });
    expect(screen.queryByTestId("answer-stale")).toBeNull();
    expect(screen.getByTestId("final-answer").textContent).toBe("New answer.");
    expect(screen.getByTestId("copy-answer")).toBeTruthy();
  });
});
