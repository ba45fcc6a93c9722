// @vitest-environment jsdom
// The studio is one store of slices (state/store.ts): the canvas's run, History, the Evaluate view
// and the UI's dialogs all live in it. Each panel subscribes to its own fields, so a step's tokens
// render no History or Evaluate panel, and an evaluation's results render no canvas panel.
import "fake-indexeddb/auto";
import { act, cleanup, render } from "@testing-library/react";
import type { ReactNode } from "react";
import { Profiler } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { EvalProgress } from "../engine/eval/runner.ts";
import type { EvalResult } from "../engine/eval/schema.ts";
import { stepsOf } from "../engine/graph/document.ts";
import { createHistory } from "../engine/graph/history.ts";
import { makeDoc } from "../engine/graph/testing.ts";
import type { RunEvent } from "../engine/schema/events.ts";
import type { Worker } from "../engine/schema/worker.ts";
import { setEvalStore } from "../state/evalController.ts";
import { createDexieEvalStore } from "../state/evalStore.ts";
import { useStudio } from "../state/store.ts";
import { EvalProgressBar } from "./eval/EvalProgressBar.tsx";
import EvaluateView from "./eval/EvaluateView.tsx";
import { EvaluateMount } from "./eval/EvaluateMount.tsx";
import { RescoreControl } from "./eval/RescoreControl.tsx";
import { Header } from "./Header.tsx";
import { HistoryPanel } from "./history/HistoryPanel.tsx";
import { Lineage } from "./history/Lineage.tsx";
import { PanelToggles } from "./PanelToggles.tsx";
import { AnswerPanel } from "./panels/AnswerPanel.tsx";
import { Inspector } from "./panels/Inspector.tsx";
import { RunBar } from "./panels/RunBar.tsx";
import { WorkerPreview } from "./panels/WorkerPreview.tsx";
import { loadMarkdown } from "./ui/Markdown.tsx";

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

/** Steps a, b, c on the canvas, a run in flight (a done, c started), step b selected. */
beforeEach(() => {
  useStudio.setState(initial, true);
  setEvalStore(createDexieEvalStore(`renders-${Math.random()}`));
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

/** Renders `node`, lets its mount effects settle, then counts its commits while `update` runs `frames` times. */
async function rendersWhile(node: ReactNode, update: (i: number) => void, frames: number) {
  let commits = 0;
  render(
    <Profiler id="panel" onRender={() => commits++}>
      {node}
    </Profiler>,
  );
  // Mount effects (History's storage line, Evaluate's look for a resumable evaluation) end first.
  await act(async () => {
    await new Promise((done) => setTimeout(done, 0));
  });
  const before = commits;
  for (let i = 0; i < frames; i++) act(() => update(i));
  return commits - before;
}

const tokens = (i: number) =>
  useStudio.getState().applyEvents([{ type: "step_delta", round: 0, step: 2, text: `t${i} ` }]);

const result = (i: number): EvalResult => ({
  item: `q${i}`,
  strategy: "single:w0",
  repeat: 0,
  correct: true,
  score: 1,
  answer: "7",
  expected: "7",
  tokens: 10,
  cost: 0.001,
  latencyMs: 100,
  runId: `run-${i}`,
  calls: 1,
  extracted: "7",
  status: "done",
  endReason: "no_rounds",
  planFailed: false,
  error: null,
});

const progress = (done: number): EvalProgress => ({
  done,
  errors: 0,
  total: 40,
  running: 1,
  cost: done * 0.001,
  etaMs: null,
  paused: false,
  skipped: [],
});

/** An evaluation's stream: one result and one progress line per frame. */
const evalFrame = (i: number) => {
  useStudio.getState().addEvalResult(result(i));
  useStudio.getState().patchEval({ evalProgress: progress(i + 1) });
};

const theme = { theme: "light" as const, onToggleTheme: () => {} };

describe("one store: a step's tokens render none of History, Evaluate and the header", () => {
  it.each([
    ["the History panel", <HistoryPanel key="h" />],
    ["the lineage links", <Lineage key="l" />],
    ["the Evaluate view", <EvaluateView key="e" />],
    ["the Evaluate button", <EvaluateMount key="m" />],
    ["the header", <Header key="hd" {...theme} />],
    ["the panel toggles", <PanelToggles key="p" />],
  ])("%s does not render for another step's tokens", async (_name, node) => {
    expect(await rendersWhile(node, tokens, 30)).toBe(0);
    expect(useStudio.getState().results.c?.output).toContain("t29");
  });
});

describe("one store: an evaluation's results render no canvas panel", () => {
  beforeEach(() => {
    useStudio.setState({ evalPhase: "running" });
  });

  it.each([
    ["the Inspector", <Inspector key="i" />],
    ["the worker preview", <WorkerPreview key="w" index={1} />],
    ["the answer panel", <AnswerPanel key="a" />],
    ["the run bar", <RunBar key="r" />],
    ["the History panel", <HistoryPanel key="h" />],
    ["the header", <Header key="hd" {...theme} />],
  ])("%s does not render for evaluation results", async (_name, node) => {
    expect(await rendersWhile(node, evalFrame, 30)).toBe(0);
    expect(useStudio.getState().evalResults).toHaveLength(30);
  });

  it("the progress bar renders for each progress line, and not for a step's tokens", async () => {
    expect(await rendersWhile(<EvalProgressBar />, evalFrame, 10)).toBe(10);
    cleanup();
    expect(await rendersWhile(<EvalProgressBar />, tokens, 10)).toBe(0);
  });

  it("the re-score control renders only when the count it shows changes", async () => {
    // No evaluation on screen: it shows nothing, and 30 scored results change nothing it shows.
    expect(await rendersWhile(<RescoreControl />, evalFrame, 30)).toBe(0);
  });
});
