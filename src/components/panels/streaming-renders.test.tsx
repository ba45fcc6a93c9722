// @vitest-environment jsdom
// While a step streams, the panels that show something else do not render again: they subscribe
// to what they show (STYLE: panels subscribe to the one step they show, not to every result).
import { act, cleanup, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { Profiler } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHistory } from "../../engine/graph/history.ts";
import { makeDoc } from "../../engine/graph/testing.ts";
import { stepsOf } from "../../engine/graph/document.ts";
import type { RunEvent } from "../../engine/schema/events.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { useStudio } from "../../state/store.ts";
import { loadMarkdown } from "../ui/Markdown.tsx";
import { AnswerPanel } from "./AnswerPanel.tsx";
import { Inspector } from "./Inspector.tsx";
import { RunBar } from "./RunBar.tsx";
import { WorkerPreview } from "./WorkerPreview.tsx";

const initial = useStudio.getState();
const worker = (i: number): Worker => ({
  id: `w${i}`,
  name: `Worker ${i}`,
  kind: "openai",
  baseURL: "http://127.0.0.1:9/v1",
  model: `m${i}`,
  temperature: 0.2,
  maxTokens: 256,
  prefill: false,
});

beforeAll(async () => {
  await loadMarkdown();
});
afterEach(cleanup);

/** Steps a, b (sees a), c (sees all), a run started on them, a done; step `selected` selected. */
beforeEach(() => {
  useStudio.setState(initial, true);
  const doc = makeDoc([[], [0], "all"]);
  useStudio.setState({
    pool: [worker(0), worker(1), worker(2)],
    history: createHistory(doc),
    question: "Why is the sky blue?",
    selectedIds: ["b"],
    runStepIds: ["a", "b", "c"],
    phase: "running",
  });
  const pool = useStudio.getState().pool;
  const start: RunEvent[] = [
    { type: "run_start", at: 1, runId: "r", question: "q", pool, maxSteps: 5, maxRounds: 0 },
    { type: "round_start", at: 1, round: 0, steps: stepsOf(doc) },
    { type: "step_start", at: 2, round: 0, step: 0, attempt: 1, messages: [] },
    { type: "step_delta", round: 0, step: 0, text: "Rayleigh." },
    {
      type: "step_finish",
      at: 3,
      round: 0,
      step: 0,
      output: "Rayleigh.",
      usage: { promptTokens: 5, completionTokens: 2, estimated: false },
      cost: 0,
    },
    { type: "step_start", at: 4, round: 0, step: 2, attempt: 1, messages: [] },
  ];
  useStudio.getState().applyEvents(start);
});

/** Renders `node` and counts its commits while step c streams `frames` batches of tokens. */
function rendersWhileStreaming(node: ReactNode, frames: number): number {
  let commits = 0;
  render(
    <Profiler id="panel" onRender={() => commits++}>
      {node}
    </Profiler>,
  );
  const before = commits;
  for (let i = 0; i < frames; i++)
    act(() =>
      useStudio.getState().applyEvents([{ type: "step_delta", round: 0, step: 2, text: `t${i} ` }]),
    );
  return commits - before;
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
