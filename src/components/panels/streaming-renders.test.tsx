// @vitest-environment jsdom
// While a step streams, the panels that show something else do not render again: they subscribe
// to what they show (STYLE: panels subscribe to the one step they show, not to every result).
import { act, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../engine/schema/events.ts";
import { useStudio } from "../../state/slices/store.ts";
import { renderCounted, withRunInFlight } from "../../test-support/components/run-in-flight.tsx";
import { AnswerPanel } from "./AnswerPanel.tsx";
import { Inspector } from "./Inspector.tsx";
import { RunBar } from "./RunBar.tsx";
import { WorkerPreview } from "./WorkerPreview.tsx";

/** Steps a, b (sees a), c (sees all), a run started on them, a done; step `selected` selected. */
withRunInFlight({ aStreamed: true });

/** Renders `node` and counts its commits while step c streams `frames` batches of tokens. */
function rendersWhileStreaming(node: ReactNode, frames: number): number {
  const commits = renderCounted(node);
  const before = commits();
  for (let i = 0; i < frames; i++)
    act(() =>
      useStudio.getState().applyEvents([{ type: "step_delta", round: 0, step: 2, text: `t${i} ` }]),
    );
  return commits() - before;
}

describe("panels while another step streams", () => {
  it("the Inspector of step b (and its worker preview) does not render for step c's tokens", () => {
    expect(rendersWhileStreaming(<Inspector />, 40)).toBe(0);
    expect(useStudio.getState().results.c?.output).toContain("t39");
    // What it shows is still its own step's: b reads a's finished output.
    expect(screen.getByTestId("worker-preview").textContent).toContain("Rayleigh.");
  });

  it("the worker preview of step b does not render for step c's tokens", () => {
    expect(rendersWhileStreaming(<WorkerPreview index={1} />, 40)).toBe(0);
  });

  it("the answer panel does not render for tokens that change no answer", () => {
    expect(rendersWhileStreaming(<AnswerPanel />, 40)).toBe(0);
    const usage = { promptTokens: 5, completionTokens: 40, estimated: false };
    const end: RunEvent = {
      type: "step_finish",
      at: 5,
      round: 0,
      step: 2,
      output: "Blue.",
      usage,
      cost: 0,
    };
    act(() => useStudio.getState().applyEvents([end]));
    expect(screen.getByTestId("final-answer").textContent).toBe("Blue.");
  });

  it("the run bar does not render for tokens that change no figure it shows", () => {
    expect(rendersWhileStreaming(<RunBar />, 40)).toBe(0);
  });

  it("the Inspector of the streaming step renders for each of its batches", () => {
    useStudio.setState({ selectedIds: ["c"] });
    expect(rendersWhileStreaming(<Inspector />, 10)).toBe(10);
  });
});
