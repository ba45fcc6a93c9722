// @vitest-environment jsdom
// The studio is one store of slices (state/slices/store.ts): the canvas's run, History, the Evaluate view
// and the UI's dialogs all live in it. Each panel subscribes to its own fields, so a step's tokens
// render no History or Evaluate panel, and an evaluation's results render no canvas panel.
import "fake-indexeddb/auto";
import { act, cleanup } from "@testing-library/react";
import type { ReactNode } from "react";
import { beforeEach, describe, expect, it } from "vitest";
import type { EvalProgress } from "../engine/eval/runner.ts";
import type { EvalResult } from "../engine/eval/schema.ts";
import { doneResult } from "../test-support/engine/eval/eval-results.ts";
import { setEvalStore } from "../state/eval/evalStore.ts";
import { createDexieEvalStore } from "../state/eval/evalStore.ts";
import { useStudio } from "../state/slices/store.ts";
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
import { renderCounted, withRunInFlight } from "../test-support/components/run-in-flight.tsx";

/** Steps a, b, c on the canvas, a run in flight (a done, c started), step b selected. */
withRunInFlight({
  aStreamed: false,
  beforeRun: () => setEvalStore(createDexieEvalStore(`renders-${Math.random()}`)),
});

/** Renders `node`, lets its mount effects settle, then counts its commits while `update` runs `frames` times. */
async function rendersWhile(node: ReactNode, update: (i: number) => void, frames: number) {
  const commits = renderCounted(node);
  // Mount effects (History's storage line, Evaluate's look for a resumable evaluation) end first.
  await act(async () => {
    await new Promise((done) => setTimeout(done, 0));
  });
  const before = commits();
  for (let i = 0; i < frames; i++) act(() => update(i));
  return commits() - before;
}

const tokens = (i: number) =>
  useStudio.getState().applyEvents([{ type: "step_delta", round: 0, step: 2, text: `t${i} ` }]);

const result = (i: number): EvalResult => doneResult(`q${i}`, "single:w0", { runId: `run-${i}` });

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
