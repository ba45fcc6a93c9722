import { describe, expect, it } from "vitest";
import { applyEdit } from "./edit.ts";
import type { Edit } from "./edit.ts";
import type { WorkflowDoc } from "./document.ts";
import { dependants, edgesOf, staleAfterEdit } from "./edges.ts";
import { counterIds, makeDoc } from "../../test-support/engine/graph/graph-docs.ts";

function edited(doc: WorkflowDoc, edit: Edit): WorkflowDoc {
  const r = applyEdit(doc, edit, { makeId: counterIds() });
  if (!r.ok) throw new Error(r.message);
  return r.doc;
}

const sorted = (s: Set<string>) => [...s].sort();

describe("edgesOf", () => {
  it("one edge per visible earlier step; 'all' edges are bundled", () => {
    expect(edgesOf(makeDoc([[], [0], "all"]))).toEqual([
      { id: "a->b", source: "a", target: "b", bundle: false },
      { id: "a->c", source: "a", target: "c", bundle: true },
      { id: "b->c", source: "b", target: "c", bundle: true },
    ]);
    expect(edgesOf(makeDoc(["all", []]))).toEqual([]);
  });
});

describe("dependants", () => {
  it("finds direct and transitive readers, including 'all' steps", () => {
    const doc = makeDoc([[], [0], [], [1], "all", [2]]);
    expect(dependants(doc, 0)).toEqual([1, 3, 4]);
    expect(dependants(doc, 2)).toEqual([4, 5]);
    expect(dependants(doc, 5)).toEqual([]);
  });
});

describe("staleAfterEdit", () => {
  // a; b reads a; c independent; d reads b; e reads all.
  const doc = makeDoc([[], [0], [], [1], "all"]);

  it("a changed subtask marks the step and everything that sees it", () => {
    const after = edited(doc, { kind: "setSubtask", id: "b", subtask: "new" });
    expect(sorted(staleAfterEdit(doc, after))).toEqual(["b", "d", "e"]);
  });

  it("a changed worker on an independent step marks it and the 'all' reader", () => {
    const after = edited(doc, { kind: "setWorker", id: "c", worker: "w5" });
    expect(sorted(staleAfterEdit(doc, after))).toEqual(["c", "e"]);
  });

  it("a changed access list marks the step and its readers", () => {
    const after = edited(doc, { kind: "connect", source: "c", target: "d" });
    expect(sorted(staleAfterEdit(doc, after))).toEqual(["d", "e"]);
  });

  it("a delete marks what read the deleted step, not the re-indexed rest", () => {
    const after = edited(doc, { kind: "delete", ids: ["a"] });
    expect(sorted(staleAfterEdit(doc, after))).toEqual(["b", "d", "e"]);
    const removeC = edited(doc, { kind: "delete", ids: ["c"] });
    expect(sorted(staleAfterEdit(doc, removeC))).toEqual(["e"]);
  });

  it("positions, and moves that keep what each step reads, mark nothing", () => {
    expect(
      staleAfterEdit(doc, edited(doc, { kind: "setPosition", id: "a", x: 1, y: 1 })).size,
    ).toBe(0);
    const moved = edited(makeDoc([[], [], [1]]), { kind: "move", id: "b", toIndex: 0 });
    expect(staleAfterEdit(makeDoc([[], [], [1]]), moved).size).toBe(0);
  });

  it("a move that reorders what an 'all' step reads marks it", () => {
    const before = makeDoc([[], [], "all"]);
    const after = edited(before, { kind: "move", id: "b", toIndex: 0 });
    expect(sorted(staleAfterEdit(before, after))).toEqual(["c"]);
  });

  it("new steps are not stale, but existing steps that now see them are", () => {
    const after = edited(doc, { kind: "add", afterIndex: 0 });
    expect(sorted(staleAfterEdit(doc, after))).toEqual(["e"]);
  });
});
