import { beforeEach, describe, expect, it } from "vitest";
import { createHistory } from "../engine/graph/history.ts";
import { makeDoc } from "../test-support/engine/graph/graph-docs.ts";
import { emptyRecord, stepRecord } from "../engine/run/record.ts";
import { emptyRound } from "../engine/run/record-parts.ts";
import type { RunRecord } from "../engine/schema/record.ts";
import { showRun } from "./run/open.ts";
import type { StepResult } from "./slices/run.ts";
import { resetStudio } from "../test-support/state/studio-state.ts";
import { stepResult } from "../test-support/state/slices/step-results.ts";
import { useStudio } from "./slices/store.ts";

// Undo gives back what the studio showed: a result only marked stale since comes back as it
// was, and undoing an import (an opened run) shows the previous run whole, outputs and all.

/** a; b sees a; c sees b. */
const DOC = makeDoc([[], [0], [1]]);

/** A step done with `output`, which its one message also holds. */
function done(output: string): StepResult {
  return stepResult({ output, messages: [{ role: "assistant", content: output }] });
}

const allDone = () => ({ a: done("A"), b: done("B"), c: done("C") });
const st = () => useStudio.getState();
const statuses = () =>
  Object.fromEntries(Object.entries(st().results).map(([k, r]) => [k, r.status]));

/** A stored run of one finished step. */
function storedRun(id: string, question: string, output: string): RunRecord {
  const pool = [{ id: "w0" }] as unknown as RunRecord["pool"];
  const step = {
    ...stepRecord({ pool }, { worker: "w0", subtask: "Do it.", access: [] }, 0),
  };
  const round = { ...emptyRound(0), steps: [{ ...step, status: "done" as const, output }] };
  return { ...emptyRecord(id), question, status: "done", rounds: [round] };
}

beforeEach(() => {
  resetStudio();
  useStudio.setState({ history: createHistory(DOC), results: allDone() });
});

describe("undo after a delete", () => {
  it("gives a finished step back its status and output exactly", () => {
    const before = st().results;
    st().edit({ kind: "delete", ids: ["b"] });
    expect(statuses().c).toBe("stale");
    st().undo();
    expect(statuses()).toEqual({ a: "done", b: "done", c: "done" });
    expect(st().results.c).toBe(before.c);
    // Redo deletes again, and the step that read the deleted one is stale again.
    st().redo();
    expect(statuses().c).toBe("stale");
  });

  it("keeps a step stale that was stale before the edit", () => {
    st().edit({ kind: "setSubtask", id: "a", subtask: "changed" });
    expect(statuses()).toEqual({ a: "stale", b: "stale", c: "stale" });
    st().edit({ kind: "delete", ids: ["b"] });
    st().undo();
    expect(statuses()).toEqual({ a: "stale", b: "stale", c: "stale" });
    st().undo();
    expect(statuses()).toEqual({ a: "done", b: "done", c: "done" });
  });

  it("leaves a result that a run gave since as it is", () => {
    st().edit({ kind: "setWorker", id: "a", worker: "w2" });
    useStudio.setState({ results: allDone() });
    st().undo();
    expect(statuses()).toEqual({ a: "stale", b: "stale", c: "stale" });
  });
});

describe("undo after opening a run", () => {
  it("shows the previous run whole: workflow, question and outputs", () => {
    const record = storedRun("old", "Old question?", "old answer");
    showRun(record, { key: "old", exportedAt: null });
    const shown = { doc: st().history.present, results: st().results, question: st().question };
    expect(Object.values(shown.results).map((r) => r.output)).toEqual(["old answer"]);

    showRun(storedRun("new", "New question?", "new answer"), { key: "new", exportedAt: null });
    expect(st().question).toBe("New question?");
    st().undo();
    expect(st().history.present).toBe(shown.doc);
    expect(st().results).toBe(shown.results);
    expect(st().record).toBe(record);
    expect(st().question).toBe("Old question?");
    expect(st().openKey).toBe("old");

    // Redo opens the imported run again, with its outputs.
    st().redo();
    expect(st().question).toBe("New question?");
    expect(Object.values(st().results).map((r) => r.output)).toEqual(["new answer"]);
    expect(st().openKey).toBe("new");
  });

  it("brings back the run even where the two workflows are equal", () => {
    showRun(storedRun("one", "Q1", "first"), { key: "one", exportedAt: null });
    const doc = st().history.present;
    showRun(storedRun("two", "Q2", "second"), { key: "two", exportedAt: null }, doc);
    st().undo();
    expect(st().openKey).toBe("one");
    expect(Object.values(st().results).map((r) => r.output)).toEqual(["first"]);
  });

  it("only steps the workflow back while a run is in flight", () => {
    showRun(storedRun("one", "Q1", "first"), { key: "one", exportedAt: null });
    showRun(storedRun("two", "Q2", "second"), { key: "two", exportedAt: null });
    useStudio.setState({ phase: "running" });
    st().undo();
    expect(st().openKey).toBe("two");
  });
});
