// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createHistory } from "../../engine/graph/history.ts";
import { makeDoc } from "../../test-support/engine/graph/graph-docs.ts";
import { emptyRecord } from "../../engine/run/record.ts";
import { cancelNow, runNow } from "../../state/run/controller.ts";
import { useStudio } from "../../state/slices/store.ts";
import { RunBar } from "./RunBar.tsx";

vi.mock("../../state/run/controller.ts", () => ({
  runNow: vi.fn(() => Promise.resolve()),
  cancelNow: vi.fn(),
}));

const initial = useStudio.getState();
const seedSteps = (n: number) =>
  useStudio.setState({ history: createHistory(makeDoc(Array.from({ length: n }, () => []))) });
const runButton = () => screen.getByTestId<HTMLButtonElement>("run");

beforeEach(() => useStudio.setState(initial, true));
afterEach(cleanup);

describe("RunBar", () => {
  it("disables Run with no steps", () => {
    render(<RunBar />);
    expect(runButton().disabled).toBe(true);
  });

  it("runs a workflow with steps", () => {
    seedSteps(2);
    render(<RunBar />);
    expect(runButton().disabled).toBe(false);
    fireEvent.click(runButton());
    expect(runNow).toHaveBeenCalledTimes(1);
  });

  it("offers Cancel instead of Run while running", () => {
    seedSteps(2);
    useStudio.setState({ phase: "running" });
    render(<RunBar />);
    expect(screen.queryByTestId("run")).toBeNull();
    fireEvent.click(screen.getByTestId("cancel"));
    expect(cancelNow).toHaveBeenCalledTimes(1);
  });

  it("shows the run's totals: tokens, cost, planning and running time (editing time not counted)", () => {
    const record = {
      ...emptyRecord(),
      // Started 190 s before it finished, of which 186 s were spent editing between plan and run.
      startedAt: 10_000,
      finishedAt: 200_000,
      planningMs: 1_500,
      executionMs: 4_250,
      totals: { promptTokens: 1200, completionTokens: 34, cost: 0.0123, estimated: true, calls: 3 },
    };
    useStudio.setState({ record });
    render(<RunBar />);
    expect(screen.getByTestId("totals").textContent).toBe(
      "1,234 tokens* · $0.01 · planning 1.5 s · running 4.3 s",
    );
  });

  it("says when the totals are those of a retry or re-run only", () => {
    const totals = {
      promptTokens: 10,
      completionTokens: 5,
      cost: 0.01,
      estimated: false,
      calls: 1,
    };
    useStudio.setState({ record: { ...emptyRecord(), kind: "rerun", parentId: "p", totals } });
    render(<RunBar />);
    expect(screen.getByTestId("totals").textContent).toMatch(/^This re-run only: 15 tokens/);
    cleanup();
    useStudio.setState({ record: { ...emptyRecord(), kind: "planned", parentId: null, totals } });
    render(<RunBar />);
    expect(screen.queryByTestId("totals-own")).toBeNull();
  });

  it("shows no totals before any call", () => {
    render(<RunBar />);
    expect(screen.getByTestId("totals").textContent).toBe("");
  });

  it("shows a notice that can be dismissed", () => {
    seedSteps(3);
    render(<RunBar />);
    expect(screen.queryByTestId("notice")).toBeNull();
    act(() => void useStudio.getState().edit({ kind: "connect", source: "c", target: "c" }));
    expect(screen.getByTestId("notice").textContent).toMatch(/cannot read itself/);
    fireEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(useStudio.getState().notice).toBeNull();
    expect(screen.queryByTestId("notice")).toBeNull();
  });

  it("warns past five steps, not at five", () => {
    seedSteps(5);
    const { container } = render(<RunBar />);
    expect(container.querySelector(".warning")).toBeNull();
    cleanup();
    seedSteps(6);
    render(<RunBar />);
    expect(screen.getByText(/has 6 steps, more than the 5 a Conductor may write/)).toBeTruthy();
  });

  it("adds a step, undoes and redoes it", () => {
    render(<RunBar />);
    const undo = screen.getByTestId<HTMLButtonElement>("undo");
    const redo = screen.getByTestId<HTMLButtonElement>("redo");
    expect(undo.disabled).toBe(true);
    fireEvent.click(screen.getByTestId("add-step"));
    expect(useStudio.getState().history.present.steps).toHaveLength(1);
    expect(runButton().disabled).toBe(false);
    fireEvent.click(undo);
    expect(useStudio.getState().history.present.steps).toHaveLength(0);
    expect(redo.disabled).toBe(false);
    fireEvent.click(redo);
    expect(useStudio.getState().history.present.steps).toHaveLength(1);
  });
});
