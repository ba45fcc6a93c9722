import { describe, expect, it } from "vitest";
import { applyEdit } from "./edit.ts";
import type { WorkflowDoc } from "./document.ts";
import { canRedo, canUndo, createHistory, endGroup, push, redo, undo } from "./history.ts";
import { makeDoc } from "../../test-support/engine/graph/graph-docs.ts";

describe("history", () => {
  it("undoes and redoes in order", () => {
    let h = createHistory(1);
    h = push(h, 2);
    h = push(h, 3);
    expect(canUndo(h)).toBe(true);
    expect(canRedo(h)).toBe(false);
    h = undo(h);
    expect(h.present).toBe(2);
    h = undo(h);
    expect(h.present).toBe(1);
    expect(canUndo(h)).toBe(false);
    expect(undo(h)).toBe(h);
    h = redo(redo(h));
    expect(h.present).toBe(3);
    expect(redo(h)).toBe(h);
  });

  it("a new push clears redo", () => {
    let h = push(push(createHistory("a"), "b"), "c");
    h = undo(h);
    expect(canRedo(h)).toBe(true);
    h = push(h, "d");
    expect(canRedo(h)).toBe(false);
    expect(h.past).toEqual(["a", "b"]);
  });

  it("pushing a value equal to the present is a no-op", () => {
    const doc = makeDoc([[], [0]]);
    const h = createHistory<WorkflowDoc>(doc);
    expect(push(h, structuredClone(doc))).toBe(h);
    expect(push(h, doc, "drag:a")).toBe(h);
  });

  it("a whole drag (30 setPosition pushes, one group key) is one undo step", () => {
    const start = makeDoc([[], [0]]);
    let h = push(createHistory<WorkflowDoc>(start), makeDoc([[], [0], []]));
    const beforeDrag = h.present;
    for (let i = 1; i <= 30; i++) {
      const r = applyEdit(h.present, { kind: "setPosition", id: "a", x: i * 3, y: i });
      if (!r.ok) throw new Error(r.message);
      h = push(h, r.doc, "drag:a");
    }
    expect(h.present.positions).toEqual({ a: { x: 90, y: 30 } });
    expect(h.past).toHaveLength(2);
    h = undo(h);
    expect(h.present).toBe(beforeDrag);
    h = redo(h);
    expect(h.present.positions).toEqual({ a: { x: 90, y: 30 } });
  });

  it("different keys, no key, endGroup and undo all start a new step", () => {
    let h = push(push(createHistory(0), 1, "subtask:a"), 2, "subtask:a");
    expect(h.past).toEqual([0]);
    h = push(h, 3, "subtask:b");
    expect(h.past).toEqual([0, 2]);
    h = push(endGroup(h), 4, "subtask:b");
    expect(h.past).toEqual([0, 2, 3]);
    h = push(push(h, 5), 6);
    expect(h.past).toEqual([0, 2, 3, 4, 5]);
    h = push(h, 7, "drag:a");
    h = push(undo(h), 8, "drag:a");
    expect(h.past).toEqual([0, 2, 3, 4, 5, 6]);
    expect(h.present).toBe(8);
  });

  it("keeps at most `limit` undo steps, dropping the oldest", () => {
    let h = createHistory(0);
    for (let i = 1; i <= 250; i++) h = push(h, i);
    expect(h.past).toHaveLength(200);
    expect(h.past[0]).toBe(50);
    let small = createHistory(0);
    for (let i = 1; i <= 5; i++) small = push(small, i, undefined, { limit: 3 });
    expect(small.past).toEqual([2, 3, 4]);
  });

  it("accepts a custom equality", () => {
    const h = createHistory({ v: 1, at: 0 });
    const same = (a: { v: number }, b: { v: number }) => a.v === b.v;
    expect(push(h, { v: 1, at: 5 }, undefined, { equals: same })).toBe(h);
  });
});
