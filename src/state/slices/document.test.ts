import { beforeEach, describe, expect, it } from "vitest";
import type { WorkflowDoc } from "../../engine/graph/document.ts";
import { Capture, createHistory } from "../../engine/graph/history.ts";
import { makeDoc } from "../../test-support/engine/graph/graph-docs.ts";
import { stepResult } from "../../test-support/state/slices/step-results.ts";
import type { StepStatus } from "../../engine/schema/record.ts";
import type { StepResult } from "./run.ts";
import { useStudio } from "./store.ts";

const initial = useStudio.getState();

/** a; b sees a; c sees b; d sees nothing. */
const DOC = makeDoc([[], [0], [1], []]);

const result = (status: StepStatus, output = "out"): StepResult => stepResult({ status, output });

const allDone = () => ({
  a: result("done", "A"),
  b: result("done", "B"),
  c: result("done", "C"),
  d: result("done", "D"),
});

const present = () => useStudio.getState().history.present;
const past = () => useStudio.getState().history.past;
const subtaskOf = (id: string) => present().steps.find((s) => s.id === id)?.subtask;
const statuses = () =>
  Object.fromEntries(Object.entries(useStudio.getState().results).map(([k, r]) => [k, r.status]));

function seed(doc: WorkflowDoc = DOC) {
  useStudio.setState({ history: createHistory(doc) });
}

beforeEach(() => {
  useStudio.setState(initial, true);
  seed();
});

describe("undo grouping", () => {
  it("folds several edits of one subtask into one undo step", () => {
    const { edit } = useStudio.getState();
    for (const text of ["W", "Wr", "Wri", "Write"])
      edit({ kind: "setSubtask", id: "a", subtask: text }, "subtask:a");
    expect(subtaskOf("a")).toBe("Write");
    expect(past()).toHaveLength(1);
    useStudio.getState().undo();
    expect(subtaskOf("a")).toBe("task a");
    expect(past()).toHaveLength(0);
    useStudio.getState().redo();
    expect(subtaskOf("a")).toBe("Write");
  });

  it("starts a new undo step after endEditGroup, even with the same key", () => {
    const s = useStudio.getState();
    s.edit({ kind: "setSubtask", id: "a", subtask: "one" }, "subtask:a");
    s.edit({ kind: "setSubtask", id: "a", subtask: "one two" }, "subtask:a");
    s.endEditGroup();
    s.edit({ kind: "setSubtask", id: "a", subtask: "one two three" }, "subtask:a");
    expect(past()).toHaveLength(2);
    s.undo();
    expect(subtaskOf("a")).toBe("one two");
    s.undo();
    expect(subtaskOf("a")).toBe("task a");
  });

  it("keeps edits of different steps apart", () => {
    const s = useStudio.getState();
    s.edit({ kind: "setSubtask", id: "a", subtask: "x" }, "subtask:a");
    s.edit({ kind: "setSubtask", id: "b", subtask: "y" }, "subtask:b");
    expect(past()).toHaveLength(2);
  });

  it("folds a whole drag into one undo step", () => {
    const s = useStudio.getState();
    for (let x = 0; x <= 50; x += 10)
      s.edit({ kind: "setPosition", id: "b", x, y: x / 2 }, "drag:b");
    expect(present().positions.b).toEqual({ x: 50, y: 25 });
    expect(past()).toHaveLength(1);
    s.endEditGroup();
    s.edit({ kind: "setPosition", id: "b", x: 90, y: 90 }, "drag:b");
    expect(past()).toHaveLength(2);
    s.undo();
    expect(present().positions.b).toEqual({ x: 50, y: 25 });
    s.undo();
    expect(present().positions).toEqual({});
  });

  it("makes an ungrouped edit its own undo step", () => {
    const s = useStudio.getState();
    s.edit({ kind: "add" });
    s.edit({ kind: "add" });
    expect(present().steps).toHaveLength(6);
    expect(past()).toHaveLength(2);
  });
});

describe("refused edits", () => {
  it("sets the notice and changes nothing when an edge would make a loop", () => {
    useStudio.setState({ results: allDone() });
    const before = useStudio.getState();
    // c reads b reads a: a cannot also read c.
    expect(before.edit({ kind: "connect", source: "c", target: "a" })).toBe(false);
    const after = useStudio.getState();
    expect(after.notice).toMatch(/cannot read/);
    expect(after.history).toBe(before.history);
    expect(after.results).toBe(before.results);
  });

  it("clears the notice with the next edit that goes through", () => {
    const s = useStudio.getState();
    s.edit({ kind: "setAccess", id: "a", access: [3] });
    expect(useStudio.getState().notice).not.toBeNull();
    expect(s.edit({ kind: "setSubtask", id: "a", subtask: "fine" })).toBe(true);
    expect(useStudio.getState().notice).toBeNull();
  });
});

describe("stale results", () => {
  it("marks the edited step and everything that sees it stale", () => {
    useStudio.setState({ results: allDone() });
    useStudio.getState().edit({ kind: "setSubtask", id: "b", subtask: "changed" });
    expect(statuses()).toEqual({ a: "done", b: "stale", c: "stale", d: "done" });
    // Outputs stay visible: stale only says they no longer hold.
    expect(useStudio.getState().results.b?.output).toBe("B");
  });

  it("marks nothing for a position change", () => {
    useStudio.setState({ results: allDone() });
    useStudio.getState().edit({ kind: "setPosition", id: "b", x: 5, y: 5 });
    expect(statuses()).toEqual({ a: "done", b: "done", c: "done", d: "done" });
  });

  it("marks stale on undo and on redo too", () => {
    const s = useStudio.getState();
    s.edit({ kind: "setWorker", id: "a", worker: "w3" });
    // A run after the edit: everything is done again.
    useStudio.setState({ results: allDone() });
    s.undo();
    expect(statuses()).toEqual({ a: "stale", b: "stale", c: "stale", d: "done" });
    useStudio.setState({ results: allDone() });
    s.redo();
    expect(statuses()).toEqual({ a: "stale", b: "stale", c: "stale", d: "done" });
  });
});

describe("replaceDoc", () => {
  const plan = makeDoc(["all", "all"]);

  it("records the old document when undoable", () => {
    const s = useStudio.getState();
    s.replaceDoc(plan, Capture.Undoable);
    expect(present()).toBe(plan);
    s.undo();
    expect(present()).toBe(DOC);
    s.redo();
    expect(present()).toBe(plan);
  });

  it("is not undoable otherwise", () => {
    useStudio.getState().replaceDoc(plan, Capture.Skip);
    expect(present()).toBe(plan);
    expect(past()).toHaveLength(0);
  });

  it("ends a typing group, so later typing does not fold into the replacement", () => {
    const s = useStudio.getState();
    s.edit({ kind: "setSubtask", id: "a", subtask: "typed" }, "subtask:a");
    s.replaceDoc(makeDoc([[], [0], [1], []]), Capture.Undoable);
    s.edit({ kind: "setSubtask", id: "a", subtask: "typed again" }, "subtask:a");
    expect(past()).toHaveLength(3);
  });

  it("drops selected ids that are not in the new document", () => {
    useStudio.setState({ selectedIds: ["a", "d"] });
    useStudio.getState().replaceDoc(makeDoc(["all"]), Capture.Undoable);
    expect(useStudio.getState().selectedIds).toEqual(["a"]);
  });
});
