import { beforeEach, describe, expect, it } from "vitest";
import type { RunEvent } from "../../engine/schema/events.ts";
import type { StepStatus } from "../../engine/schema/record.ts";
import type { Step } from "../../engine/schema/workflow.ts";
import { stepResult } from "../../test-support/state/slices/step-results.ts";
import type { StepResult } from "./run.ts";
import { useStudio } from "./store.ts";

const initial = useStudio.getState();

beforeEach(() => useStudio.setState(initial, true));

/** A result no attempt has started yet. */
function result(status: StepStatus, output = ""): StepResult {
  return stepResult({ status, output, startedAt: null, finishedAt: null, attempts: 0 });
}

const STEPS: Step[] = [
  { worker: "w0", subtask: "first", access: [] },
  { worker: "w0", subtask: "second", access: [] },
  { worker: "w0", subtask: "third", access: "all" },
];
const usage = { promptTokens: 10, completionTokens: 5, estimated: false };

const start: RunEvent[] = [
  {
    type: "run_start",
    at: 1,
    runId: "r",
    question: "q",
    pool: [],
    maxSteps: 5,
    maxRounds: 0,
  },
  { type: "round_start", at: 2, round: 0, steps: STEPS },
];

/** Step `step` of round 0 streams `parts` and finishes with their concatenation. */
function stepEvents(step: number, parts: string[]): RunEvent[] {
  return [
    { type: "step_queued", round: 0, step },
    { type: "step_start", at: 3, round: 0, step, attempt: 1, messages: [] },
    ...parts.map((text): RunEvent => ({ type: "step_delta", round: 0, step, text })),
    { type: "step_finish", at: 4, round: 0, step, output: parts.join(""), usage, cost: 0 },
  ];
}

describe("applyEvents", () => {
  it("maps step indices onto the ids of the running round", () => {
    const s = useStudio.getState();
    s.setRunStepIds(["x", "y", "z"]);
    s.applyEvents([...start, ...stepEvents(1, ["hel", "lo"])]);
    const { results, record } = useStudio.getState();
    expect(results.y).toMatchObject({ status: "done", output: "hello", usage, attempts: 1 });
    expect(results.x).toBeUndefined();
    expect(results.z).toBeUndefined();
    expect(record.rounds[0]?.steps[1]?.output).toBe("hello");
  });

  it("follows the order in runStepIds, not the order of the ids", () => {
    const s = useStudio.getState();
    s.setRunStepIds(["z", "y", "x"]);
    s.applyEvents([...start, ...stepEvents(0, ["zero"]), ...stepEvents(2, ["two"])]);
    const { results } = useStudio.getState();
    expect(results.z?.output).toBe("zero");
    expect(results.x?.output).toBe("two");
  });

  it("keeps the results of steps no event touched, as the same objects", () => {
    const kept = result("done", "from an earlier run");
    const other = result("stale", "a step of another document");
    useStudio.setState({ results: { x: kept, elsewhere: other } });
    const s = useStudio.getState();
    s.setRunStepIds(["x", "y", "z"]);
    s.applyEvents(start);
    s.applyEvents(stepEvents(1, ["new"]));
    const { results } = useStudio.getState();
    expect(results.x).toBe(kept);
    expect(results.elsewhere).toBe(other);
    expect(results.y?.output).toBe("new");
  });

  it("shows a streaming step as running with its partial output", () => {
    const s = useStudio.getState();
    s.setRunStepIds(["x", "y", "z"]);
    s.applyEvents([...start, ...stepEvents(2, ["a", "b", "c"]).slice(0, 4)]);
    expect(useStudio.getState().results.z).toMatchObject({ status: "running", output: "ab" });
  });

  it("updates only the record for events without a step", () => {
    const before = useStudio.getState().results;
    useStudio.getState().applyEvents(start);
    expect(useStudio.getState().results).toBe(before);
    expect(useStudio.getState().record.rounds[0]?.steps).toHaveLength(3);
  });

  it("ignores events for an index with no step id", () => {
    const s = useStudio.getState();
    s.setRunStepIds(["x"]);
    s.applyEvents([...start, ...stepEvents(2, ["lost"])]);
    expect(Object.keys(useStudio.getState().results)).toEqual([]);
  });

  it("records failures on the step", () => {
    const s = useStudio.getState();
    s.setRunStepIds(["x", "y", "z"]);
    s.applyEvents([
      ...start,
      { type: "step_start", at: 3, round: 0, step: 0, attempt: 1, messages: [] },
      { type: "step_error", at: 5, round: 0, step: 0, code: "rate_limit", message: "Slow down." },
    ]);
    expect(useStudio.getState().results.x).toMatchObject({
      status: "failed",
      error: { code: "rate_limit", message: "Slow down." },
    });
  });
});

describe("markStale", () => {
  it("marks finished results stale and leaves running and queued ones", () => {
    useStudio.setState({
      results: {
        done: result("done", "kept text"),
        failed: result("failed"),
        cancelled: result("cancelled"),
        running: result("running"),
        queued: result("queued"),
      },
    });
    useStudio.getState().markStale(["done", "failed", "cancelled", "running", "queued", "nope"]);
    const { results } = useStudio.getState();
    expect(results.done).toMatchObject({ status: "stale", output: "kept text" });
    expect(results.failed?.status).toBe("stale");
    expect(results.cancelled?.status).toBe("stale");
    expect(results.running?.status).toBe("running");
    expect(results.queued?.status).toBe("queued");
    expect(results.nope).toBeUndefined();
  });

  it("keeps the results object when nothing changes", () => {
    useStudio.setState({ results: { a: result("stale"), b: result("running") } });
    const before = useStudio.getState().results;
    useStudio.getState().markStale(["a", "b", "c"]);
    expect(useStudio.getState().results).toBe(before);
  });
});
