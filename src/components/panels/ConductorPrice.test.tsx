// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runRun } from "../../engine/exec/runner.ts";
import { docFromSteps } from "../../engine/graph/document.ts";
import { createHistory } from "../../engine/graph/history.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import { stepsAt } from "../../engine/run/continue.ts";
import { recordOf } from "../../engine/run/record.ts";
import type { RunEvent } from "../../engine/schema/events.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import type { ConductorConfig, Price } from "../../engine/schema/worker.ts";
import { ConductorConfigSchema, WorkerSchema } from "../../engine/schema/worker.ts";
import { TOP } from "../../state/slices/run.ts";
import { useStudio } from "../../state/slices/store.ts";
import { nextPrice } from "../pool/PriceField.tsx";
import { ConductorPanel } from "./ConductorPanel.tsx";
import { ConductorSettings } from "./ConductorSettings.tsx";
import { RunBar } from "./RunBar.tsx";
import { RunEstimate } from "./RunEstimate.tsx";

const initial = useStudio.getState();
beforeEach(() => useStudio.setState(initial, true));
afterEach(cleanup);

const question = "Is 391 prime?";
const pool = [
  WorkerSchema.parse({ id: "w0", name: "A", model: "a", price: { input: 2, output: 10 } }),
];
const PLAN = 'Two tries.\nmodel_id = [0, 0]\nsubtasks = ["Try A", "Try B"]\naccess_list = [[], []]';
const price: Price = { input: 1, output: 4 };
const planUsage = { promptTokens: 900, completionTokens: 150, estimated: false };
const stepUsage = { promptTokens: 100, completionTokens: 20, estimated: false };

/**
 * A planned run (plan only, or run to its end) by the engine's runner, its plan costed at the
 * Conductor's price and each step at $2 / $10 for 100 + 20 tokens ($0.0004).
 */
async function plannedBy(conductor: ConductorConfig, planOnly = true): Promise<RunRecord> {
  const events: RunEvent[] = [];
  const gen = runRun({
    question,
    pool,
    conductor,
    conductorBackend: createFakeBackend([{ text: PLAN, usage: planUsage }]),
    backendFor: () => createFakeBackend(() => ({ text: "391 = 17 × 23", usage: stepUsage })),
    signal: new AbortController().signal,
    start: { from: "plan", planOnly },
  });
  for await (const e of gen) events.push(e);
  return recordOf(events);
}

function open(record: RunRecord, settingsPrice: Price | undefined) {
  useStudio.setState({
    question,
    pool,
    record,
    history: createHistory(docFromSteps(stepsAt(record, TOP))),
    conductor: { ...initial.conductor, backend: "remote", price: settingsPrice },
  });
}

const remote = (p?: Price) => ConductorConfigSchema.parse({ model: "c", price: p });

describe("the Conductor's price in Settings", () => {
  it("sets input and output like a worker's price", () => {
    useStudio.setState({ conductor: { ...initial.conductor, backend: "remote" } });
    render(<ConductorSettings />);
    expect(screen.getByTestId("conductor-price-source").textContent).toMatch(/Price unknown/);
    fireEvent.change(screen.getByTestId("conductor-price-input"), { target: { value: "1" } });
    expect(useStudio.getState().conductor.price).toEqual({ input: 1, output: 0 });
    fireEvent.change(screen.getByTestId("conductor-price-output"), { target: { value: "4" } });
    expect(useStudio.getState().conductor.price).toEqual(price);
    expect(screen.getByTestId("conductor-price-source").textContent).toMatch(/Your price/);
    // An emptied side is $0 while the other is set; emptying both makes the price unknown again.
    fireEvent.change(screen.getByTestId("conductor-price-input"), { target: { value: "" } });
    expect(useStudio.getState().conductor.price).toEqual({ input: 0, output: 4 });
    fireEvent.change(screen.getByTestId("conductor-price-output"), { target: { value: "" } });
    expect(useStudio.getState().conductor.price).toBeUndefined();
    expect(screen.getByTestId<HTMLInputElement>("conductor-price-input").value).toBe("");
    expect(screen.getByTestId("conductor-price-source").textContent).toMatch(/Price unknown/);
  });

  it("says planning is free for the in-browser Conductor, with no price to enter", () => {
    useStudio.setState({ conductor: { ...initial.conductor, backend: "webllm" } });
    render(<ConductorSettings />);
    expect(screen.getByTestId("conductor-price-free").textContent).toMatch(/Planning is free/);
    expect(screen.queryByTestId("conductor-price-input")).toBeNull();
  });
});

describe("nextPrice", () => {
  it("reads one side as typed, keeping the other, and a typed 0 / 0 as free", () => {
    expect(nextPrice(undefined, "input", "")).toBeUndefined();
    expect(nextPrice(undefined, "output", "2.5")).toEqual({ input: 0, output: 2.5 });
    expect(nextPrice({ input: 1, output: 4 }, "input", "")).toEqual({ input: 0, output: 4 });
    expect(nextPrice({ input: 0, output: 4 }, "output", "")).toBeUndefined();
    expect(nextPrice({ input: 0, output: 4 }, "output", "0")).toEqual({ input: 0, output: 0 });
    expect(nextPrice({ input: 1, output: 4 }, "input", "-3")).toEqual({ input: 0, output: 4 });
  });
});

describe("planning cost before and after a run", () => {
  it("the estimate names the plan's cost that the run will count", async () => {
    open(await plannedBy(remote(price)), price);
    render(<RunEstimate />);
    // 900 * 1 + 150 * 4, per million.
    expect(screen.getByTestId("run-estimate-conductor").textContent).toBe(
      " · planning $0.0015 (spent)",
    );
  });

  it("says when the Conductor that planned has no price, or that it planned for free", async () => {
    open(await plannedBy(remote()), undefined);
    const view = render(<RunEstimate />);
    expect(screen.getByTestId("run-estimate-conductor").textContent).toMatch(
      /planning cost unknown: the Conductor has no price/,
    );
    view.unmount();
    open(await plannedBy(ConductorConfigSchema.parse({ kind: "webllm", model: "q" })), undefined);
    render(<RunEstimate />);
    expect(screen.getByTestId("run-estimate-conductor").textContent).toMatch(/planning free/);
  });

  it("adds the refinement rounds' Conductor calls at its price", async () => {
    open(await plannedBy(remote(price)), price);
    useStudio.setState((s) => ({ conductor: { ...s.conductor, rounds: 1 } }));
    render(<RunEstimate />);
    expect(screen.getByTestId("run-estimate-conductor").textContent).toMatch(
      /^ · planning \$0\.0015 \(spent\) \+ ≤ 1 more Conductor call ≤ \$0\.\d+ \(~\$0\.\d+\)$/,
    );
  });

  it("leaves the plan out once the workflow is edited: that run does not count it", async () => {
    open(await plannedBy(remote(price)), price);
    useStudio.getState().edit({ kind: "add" });
    render(<RunEstimate />);
    expect(screen.queryByTestId("run-estimate-conductor")).toBeNull();
  });

  it("the run's totals say how much of the cost was planning", async () => {
    open(await plannedBy(remote(price), false), price);
    const view = render(<RunBar />);
    // The plan's $0.0015 and two steps' $0.0004 each.
    expect(screen.getByTestId("totals").textContent).toMatch(
      /^1,290 tokens · \$0\.0023 \(incl\. Conductor \$0\.0015\) · planning /,
    );
    view.unmount();
    // A planned run's whole cost is its plan: nothing to break down.
    open(await plannedBy(remote(price)), price);
    render(<RunBar />);
    expect(screen.getByTestId("totals").textContent).toMatch(
      /^1,050 tokens · \$0\.0015 · planning /,
    );
  });

  it("the Conductor panel shows the plan's cost, free in the browser, or that it has no price", async () => {
    const shown = async (conductor: ConductorConfig) => {
      open(await plannedBy(conductor), undefined);
      const view = render(<ConductorPanel />);
      const text = view.container.textContent ?? "";
      view.unmount();
      return text;
    };
    expect(await shown(remote(price))).toContain("1050 tokens · $0.0015");
    expect(await shown(remote())).toContain(
      "1050 tokens · cost unknown (set the Conductor's price in Settings)",
    );
    expect(await shown(ConductorConfigSchema.parse({ kind: "webllm", model: "q" }))).toContain(
      "1050 tokens · free (in this browser)",
    );
  });
});
