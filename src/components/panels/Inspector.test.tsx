// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createHistory } from "../../engine/graph/history.ts";
import { makeDoc } from "../../test-support/engine/graph/graph-docs.ts";
import { notInPool } from "../../engine/pool/cost-estimate.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { runNow } from "../../state/run/controller.ts";
import type { StepResult } from "../../state/slices/run.ts";
import { useStudio } from "../../state/slices/store.ts";
import { storeWorker } from "../../test-support/components/run-in-flight.tsx";
import { stepResult } from "../../test-support/state/slices/step-results.ts";
import { loadMarkdown } from "../ui/Markdown.tsx";
import { Inspector } from "./Inspector.tsx";

beforeAll(async () => {
  await loadMarkdown();
});

vi.mock("../../state/run/controller.ts", () => ({ runNow: vi.fn(() => Promise.resolve()) }));

const initial = useStudio.getState();

const worker = (i: number, name: string): Worker => storeWorker(i, name);

const result = (patch: Partial<StepResult>): StepResult => stepResult(patch);

/** Steps a (worker 0), b (worker 1, sees a), c (worker 2, sees all); `selected` is selected. */
function seed(selected: string | null) {
  useStudio.setState(initial, true);
  useStudio.setState({
    pool: [worker(0, "Alpha"), worker(1, "Beta"), worker(2, "Gamma")],
    history: createHistory(makeDoc([[], [0], "all"])),
    question: "Why is the sky blue?",
    selectedIds: selected ? [selected] : [],
  });
}

const step = (id: string) => useStudio.getState().history.present.steps.find((s) => s.id === id)!;
const preview = () => screen.getByTestId("worker-preview").textContent ?? "";

beforeEach(() => seed("b"));
afterEach(cleanup);

describe("Inspector", () => {
  it("shows a step's reasoning under Thinking, apart from its answer, and a waiting retry", () => {
    const usage = { promptTokens: 10, completionTokens: 50, estimated: false, reasoningTokens: 40 };
    const retry = {
      attempt: 2,
      of: 4,
      at: Date.now() + 60_000, // ahead of the clock: the countdown shows the full delay
      delayMs: 2_000,
      code: "rate_limited",
      status: 429,
      message: "The endpoint is rate limiting requests (429).",
    };
    useStudio.setState({
      results: {
        b: result({ output: "Rayleigh.", reasoning: "Short waves scatter more.", usage }),
      },
    });
    const { unmount } = render(<Inspector />);
    expect(screen.getByTestId("inspector-thinking-text").textContent).toBe(
      "Short waves scatter more.",
    );
    expect(screen.getByTestId("inspector-output").textContent).not.toContain("Short waves");
    expect(screen.getByTestId("inspector-output").textContent).toContain("40 of them reasoning");
    unmount();
    useStudio.setState({ results: { b: result({ status: "running", retry }) } });
    render(<Inspector />);
    expect(screen.getByTestId("inspector-retry").textContent).toContain(
      "retrying 2 of 4 in 2 s after 429",
    );
  });

  it("shows a hint when nothing is selected", () => {
    seed(null);
    render(<Inspector />);
    expect(screen.getByText(/Select a step on the canvas/)).toBeTruthy();
    expect(screen.queryByTestId("inspector")).toBeNull();
  });

  it("shows the step clicked after a deleted one, whose id lingers in the selection", () => {
    render(<Inspector />);
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    expect(screen.queryByTestId("inspector")).toBeNull();
    // React Flow reports the newly clicked node selected, never the deleted one deselected.
    act(() => useStudio.getState().select([...useStudio.getState().selectedIds, "c"]));
    expect(screen.getByText(/Step 2 of 2/)).toBeTruthy();
  });

  it("shows the step number and the pool in the worker select", () => {
    render(<Inspector />);
    expect(screen.getByText(/Step 2 of 3/)).toBeTruthy();
    const select = screen.getByTestId<HTMLSelectElement>("worker-select");
    expect([...select.options].map((o) => o.textContent)).toEqual([
      "0: Alpha",
      "1: Beta",
      "2: Gamma",
    ]);
    // Options are worker ids; the label keeps the Conductor's number (the place in the pool).
    expect([...select.options].map((o) => o.value)).toEqual(["w0", "w1", "w2"]);
    expect(select.value).toBe("w1");
  });

  it("changes the step's worker in the store", () => {
    render(<Inspector />);
    fireEvent.change(screen.getByTestId("worker-select"), { target: { value: "w2" } });
    expect(step("b").worker).toBe("w2");
    expect(screen.getByTestId<HTMLSelectElement>("worker-select").value).toBe("w2");
  });

  it("keeps the step's worker when the pool is reordered", () => {
    useStudio.setState({ pool: [worker(2, "Gamma"), worker(1, "Beta"), worker(0, "Alpha")] });
    render(<Inspector />);
    const select = screen.getByTestId<HTMLSelectElement>("worker-select");
    expect(select.value).toBe("w1");
    expect(select.selectedOptions[0]?.textContent).toBe("1: Beta");
    act(() => useStudio.setState({ pool: [worker(3, "Delta"), ...useStudio.getState().pool] }));
    expect(select.value).toBe("w1");
    expect(select.selectedOptions[0]?.textContent).toBe("2: Beta");
    expect(step("b").worker).toBe("w1");
  });

  it("offers a worker that is not in the pool as such", () => {
    useStudio.getState().edit({ kind: "setWorker", id: "b", worker: "w7" });
    render(<Inspector />);
    expect(screen.getByTestId<HTMLSelectElement>("worker-select").value).toBe("w7");
    expect(screen.getByText(notInPool("w7"))).toBeTruthy();
    expect(notInPool("w7")).toContain("w7");
  });

  it("edits the subtask as one undo step and shows it in the worker preview", () => {
    render(<Inspector />);
    const input = screen.getByTestId("subtask-input");
    fireEvent.change(input, { target: { value: "Check" } });
    fireEvent.change(input, { target: { value: "Check the physics" } });
    expect(step("b").subtask).toBe("Check the physics");
    expect(useStudio.getState().history.past).toHaveLength(1);
    expect(preview()).toContain("Your assigned subtask: Check the physics");
    expect(preview()).toContain("<overall_task>\nWhy is the sky blue?\n</overall_task>");
    fireEvent.blur(input);
    fireEvent.change(input, { target: { value: "Check the maths" } });
    expect(useStudio.getState().history.past).toHaveLength(2);
  });

  it("shows outputs of finished steps the step sees, and a placeholder for the rest", () => {
    seed("c");
    useStudio.setState({ results: { a: result({ output: "Rayleigh scattering." }) } });
    render(<Inspector />);
    expect(preview()).toContain("<Agent 0 response>\nRayleigh scattering.\n</Agent 0 response>");
    expect(preview()).toContain("(response of step 2, once it has run)");
    expect(preview()).toContain("Your assigned subtask: task c");
  });

  it("sets access to none", () => {
    render(<Inspector />);
    const editor = within(screen.getByTestId("access-editor"));
    fireEvent.click(editor.getByLabelText(/none/));
    expect(step("b").access).toEqual([]);
    expect(preview()).not.toContain("<Subtask assigned to Agent 0>");
  });

  it("sets access to chosen steps with the checkboxes", () => {
    seed("c");
    render(<Inspector />);
    const editor = within(screen.getByTestId("access-editor"));
    expect(editor.queryAllByRole("checkbox")).toHaveLength(0);
    fireEvent.click(editor.getByLabelText(/chosen steps/));
    expect(step("c").access).toEqual([1]);
    fireEvent.click(editor.getByLabelText("step 1"));
    expect(step("c").access).toEqual([0, 1]);
    fireEvent.click(editor.getByLabelText("step 2"));
    expect(step("c").access).toEqual([0]);
    expect(editor.getByLabelText<HTMLInputElement>("step 1").checked).toBe(true);
    fireEvent.click(editor.getByLabelText(/all earlier steps/));
    expect(step("c").access).toBe("all");
  });

  it("does not offer chosen steps for the first step", () => {
    seed("a");
    render(<Inspector />);
    const radio = within(screen.getByTestId("access-editor")).getByLabelText<HTMLInputElement>(
      /chosen steps/,
    );
    expect(radio.disabled).toBe(true);
  });

  it("shows a failed step's error with a retry button that re-runs from it", () => {
    useStudio.setState({
      results: {
        b: result({
          status: "failed",
          error: { code: "auth", message: "The API key for Beta was refused." },
        }),
      },
    });
    render(<Inspector />);
    expect(screen.getByRole("alert").textContent).toBe("The API key for Beta was refused.");
    fireEvent.click(screen.getByRole("button", { name: "Retry this step" }));
    expect(runNow).toHaveBeenCalledWith("b");
  });

  it("offers re-run from a finished step, disabled while a run is going", () => {
    useStudio.setState({ results: { b: result({ output: "**Blue** light." }) }, phase: "running" });
    render(<Inspector />);
    const button = screen.getByRole<HTMLButtonElement>("button", { name: "Re-run from here" });
    expect(button.disabled).toBe(true);
    expect(screen.getByTestId("inspector-output").querySelector("strong")?.textContent).toBe(
      "Blue",
    );
  });

  it("deletes the step and falls back to the hint", () => {
    render(<Inspector />);
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    expect(useStudio.getState().history.present.steps.map((s) => s.id)).toEqual(["a", "c"]);
    expect(screen.getByText(/Select a step on the canvas/)).toBeTruthy();
  });
});
