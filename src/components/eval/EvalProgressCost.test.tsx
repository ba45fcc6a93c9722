// @vitest-environment jsdom
// Issue 35, Major 3: an evaluation on unpriced workers shows its cost so far as unknown, never $0.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { doneResult } from "../../test-support/engine/eval/eval-results.ts";
import type { EvalProgress } from "../../engine/eval/runner-types.ts";
import { useStudio } from "../../state/slices/store.ts";
import { EvalProgressBar } from "./EvalProgressBar.tsx";

const initial = useStudio.getState();
afterEach(() => {
  cleanup();
  useStudio.setState(initial, true);
});

const progress = (cost: number): EvalProgress => ({
  done: 2,
  errors: 0,
  total: 2,
  running: 0,
  cost,
  etaMs: null,
  paused: false,
  skipped: [],
});

describe("the evaluation's cost so far", () => {
  it("is unknown, not $0, when no call had a price", () => {
    useStudio.setState({
      evalPhase: "finished",
      evalProgress: progress(0),
      evalResults: [
        doneResult("q1", "single:A", { cost: 0, unpricedCalls: 1 }),
        doneResult("q2", "single:A", { cost: 0, unpricedCalls: 1 }),
      ],
    });
    render(<EvalProgressBar />);
    expect(screen.getByTestId("eval-cost").textContent).toBe("cost unknown (2 calls unpriced)");
  });

  it("is a lower bound when some calls had a price, and plain where all had one", () => {
    useStudio.setState({
      evalPhase: "finished",
      evalProgress: progress(0.002),
      evalResults: [
        doneResult("q1", "single:A", { cost: 0.002 }),
        doneResult("q1", "single:B", { cost: 0, unpricedCalls: 1 }),
      ],
    });
    render(<EvalProgressBar />);
    expect(screen.getByTestId("eval-cost").textContent).toBe("≥ $0.0020, 1 call unpriced");
    cleanup();
    useStudio.setState({ evalResults: [doneResult("q1", "single:A", { cost: 0.002 })] });
    render(<EvalProgressBar />);
    expect(screen.getByTestId("eval-cost").textContent).toBe("$0.0020");
  });
});
