// Shared by the render-count tests: a studio with a run in flight on three steps, and a count of
// a rendered node's commits.
import { cleanup, render } from "@testing-library/react";
import type { ReactNode } from "react";
import { Profiler } from "react";
import { afterEach, beforeAll, beforeEach } from "vitest";
import { stepsOf } from "../../engine/graph/document.ts";
import { createHistory } from "../../engine/graph/history.ts";
import { makeDoc } from "../engine/graph/graph-docs.ts";
import type { RunEvent } from "../../engine/schema/events.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { useStudio } from "../../state/slices/store.ts";
import { loadMarkdown } from "../../components/ui/Markdown.tsx";

const initial = useStudio.getState();

export const storeWorker = (i: number, name = `Worker ${i}`): Worker => ({
  id: `w${i}`,
  name,
  kind: "openai",
  baseURL: "http://127.0.0.1:9/v1",
  model: `m${i}`,
  temperature: 0.2,
  maxTokens: 256,
  prefill: false,
});

/**
 * Steps a, b (sees a), c (sees all) on the canvas with step b selected, and a run started on them:
 * a done with "Rayleigh." (its tokens streamed first when `aStreamed`), c started.
 */
function startRunInFlight({ aStreamed }: { aStreamed: boolean }): void {
  const doc = makeDoc([[], [0], "all"]);
  useStudio.setState({
    pool: [storeWorker(0), storeWorker(1), storeWorker(2)],
    history: createHistory(doc),
    question: "Why is the sky blue?",
    selectedIds: ["b"],
    runStepIds: ["a", "b", "c"],
    phase: "running",
  });
  const pool = useStudio.getState().pool;
  const delta: RunEvent[] = aStreamed
    ? [{ type: "step_delta", round: 0, step: 0, text: "Rayleigh." }]
    : [];
  const start: RunEvent[] = [
    { type: "run_start", at: 1, runId: "r", question: "q", pool, maxSteps: 5, maxRounds: 0 },
    { type: "round_start", at: 1, round: 0, steps: stepsOf(doc) },
    { type: "step_start", at: 2, round: 0, step: 0, attempt: 1, messages: [] },
    ...delta,
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
}

/**
 * The hooks of a render-count test: Markdown loaded once, the DOM cleaned after each test, and
 * before each the studio reset, `beforeRun` called, and the run put in flight.
 */
export function withRunInFlight(o: { aStreamed: boolean; beforeRun?: () => void }): void {
  beforeAll(async () => {
    await loadMarkdown();
  });
  afterEach(cleanup);
  beforeEach(() => {
    useStudio.setState(initial, true);
    o.beforeRun?.();
    startRunInFlight(o);
  });
}

/** Renders `node` inside a Profiler; the function returned reads how many commits it has made. */
export function renderCounted(node: ReactNode): () => number {
  let commits = 0;
  render(
    <Profiler id="panel" onRender={() => commits++}>
      {node}
    </Profiler>,
  );
  return () => commits;
}
