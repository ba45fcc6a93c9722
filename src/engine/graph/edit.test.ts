import { describe, expect, it } from "vitest";
import type { WorkflowDoc } from "./document.ts";
import type { Edit, EditResult } from "./edit.ts";
import { applyEdit, capWarning } from "./edit.ts";
import { counterIds, makeDoc, shape } from "../../test-support/engine/graph/graph-docs.ts";

function expectOk(r: EditResult): Extract<EditResult, { ok: true }> {
  if (!r.ok) throw new Error(`expected ok, got ${r.code}: ${r.message}`);
  return r;
}

const apply = (doc: WorkflowDoc, edit: Edit) =>
  expectOk(applyEdit(doc, edit, { makeId: counterIds() }));

describe("add", () => {
  it('a first step gets access [], no worker chosen yet ("") and an empty subtask', () => {
    const r = apply(makeDoc([]), { kind: "add" });
    expect(r.created).toEqual(["n1"]);
    expect(r.doc.steps).toEqual([{ id: "n1", worker: "", subtask: "", access: [] }]);
  });

  it("a later step defaults to 'all', appended at the end", () => {
    const r = apply(makeDoc([[], [0]]), { kind: "add", worker: "w3", subtask: "Check" });
    expect(r.doc.steps[2]).toEqual({ id: "n1", worker: "w3", subtask: "Check", access: "all" });
  });

  it("inserting in the middle shifts later explicit references; 'all' stays 'all'", () => {
    const r = apply(makeDoc([[], [], [0, 1], "all"]), { kind: "add", afterIndex: 0 });
    expect(shape(r.doc)).toEqual([
      ["a", []],
      ["n1", "all"],
      ["b", []],
      ["c", [0, 2]],
      ["d", "all"],
    ]);
  });

  it("afterIndex -1 inserts a new first step with []", () => {
    const r = apply(makeDoc([[], [0]]), { kind: "add", afterIndex: -1 });
    expect(shape(r.doc)).toEqual([
      ["n1", []],
      ["a", []],
      ["b", [1]],
    ]);
  });

  it("refuses an access list that points at a later step", () => {
    const bad = applyEdit(makeDoc([[]]), { kind: "add", access: [1] });
    expect(bad).toMatchObject({ ok: false, code: "bad_access" });
  });
});

describe("delete", () => {
  it("drops references to deleted steps and shifts later indices down", () => {
    const doc = makeDoc([[], [0], [0, 1], "all", [2, 3]]);
    const r = apply(doc, { kind: "delete", ids: ["b"] });
    expect(shape(r.doc)).toEqual([
      ["a", []],
      ["c", [0]],
      ["d", "all"],
      ["e", [1, 2]],
    ]);
  });

  it("deletes several steps and their positions", () => {
    const doc = makeDoc([[], [0], [1], [0, 2]], { a: { x: 1, y: 1 }, b: { x: 2, y: 2 } });
    const r = apply(doc, { kind: "delete", ids: ["b", "c", "nope"] });
    expect(shape(r.doc)).toEqual([
      ["a", []],
      ["d", [0]],
    ]);
    expect(r.doc.positions).toEqual({ a: { x: 1, y: 1 } });
  });

  it("unknown ids change nothing and return the same document", () => {
    const doc = makeDoc([[]]);
    expect(apply(doc, { kind: "delete", ids: ["zz"] }).doc).toBe(doc);
  });
});

describe("duplicate", () => {
  it("inserts a copy right after, with the same access, and shifts later references", () => {
    const r = apply(makeDoc([[], [0], [0, 1]]), { kind: "duplicate", id: "b" });
    expect(r.created).toEqual(["n1"]);
    expect(r.doc.steps[2]).toEqual({ id: "n1", worker: "w1", subtask: "task b", access: [0] });
    expect(shape(r.doc).map(([, a]) => a)).toEqual([[], [0], [0], [0, 1]]);
  });

  it("an 'all' step's copy reads what the original reads, not the original itself", () => {
    const r = apply(makeDoc([[], [], "all"]), { kind: "duplicate", id: "c" });
    expect(shape(r.doc).map(([, a]) => a)).toEqual([[], [], "all", [0, 1]]);
  });

  it("a copy of a placed step is placed next to it", () => {
    const r = apply(makeDoc([[]], { a: { x: 10, y: 20 } }), { kind: "duplicate", id: "a" });
    expect(r.doc.positions).toEqual({ a: { x: 10, y: 20 }, n1: { x: 50, y: 60 } });
  });
});

describe("move", () => {
  it("moves a step earlier and re-indexes explicit lists to follow their steps", () => {
    const r = apply(makeDoc([[], [], [1]]), { kind: "move", id: "b", direction: -1 });
    expect(shape(r.doc)).toEqual([
      ["b", []],
      ["a", []],
      ["c", [0]],
    ]);
  });

  it("moves to an index, clamped", () => {
    const r = apply(makeDoc([[], [], [1]]), { kind: "move", id: "a", toIndex: 99 });
    expect(shape(r.doc)).toEqual([
      ["b", []],
      ["c", [0]],
      ["a", []],
    ]);
  });

  it("keeps 'all' as 'all' (it then sees whatever is earlier)", () => {
    const r = apply(makeDoc([[], [], "all"]), { kind: "move", id: "c", toIndex: 0 });
    expect(shape(r.doc)).toEqual([
      ["c", "all"],
      ["a", []],
      ["b", []],
    ]);
  });

  it("refuses a move that would make a step see a later step, naming both", () => {
    const up = applyEdit(makeDoc([[], [0]]), { kind: "move", id: "b", direction: -1 });
    expect(up).toMatchObject({ ok: false, code: "move_refused" });
    if (!up.ok) expect(up.message).toContain('step 2 ("task b") reads step 1 ("task a")');
    const down = applyEdit(makeDoc([[], [], [0]]), { kind: "move", id: "a", toIndex: 2 });
    expect(down).toMatchObject({ ok: false, code: "move_refused" });
  });

  it("moving past either end changes nothing", () => {
    const doc = makeDoc([[], []]);
    expect(apply(doc, { kind: "move", id: "a", direction: -1 }).doc).toBe(doc);
    expect(apply(doc, { kind: "move", id: "b", direction: 1 }).doc).toBe(doc);
  });
});

describe("setWorker / setSubtask / setAccess / setPosition", () => {
  const doc = makeDoc([[], [], [0]]);

  it("change one step and share the others", () => {
    const r = apply(doc, { kind: "setWorker", id: "b", worker: "w6" });
    expect(r.doc.steps[1]?.worker).toBe("w6");
    expect(r.doc.steps[0]).toBe(doc.steps[0]);
    expect(apply(doc, { kind: "setSubtask", id: "a", subtask: "New" }).doc.steps[0]?.subtask).toBe(
      "New",
    );
  });

  it("setting the same value returns the same document", () => {
    expect(apply(doc, { kind: "setWorker", id: "b", worker: "w1" }).doc).toBe(doc);
    expect(apply(doc, { kind: "setSubtask", id: "a", subtask: "task a" }).doc).toBe(doc);
    expect(apply(doc, { kind: "setAccess", id: "c", access: [0] }).doc).toBe(doc);
  });

  it("setAccess normalises valid lists and refuses later or own indices", () => {
    expect(
      apply(doc, { kind: "setAccess", id: "c", access: [1, 0, 1] }).doc.steps[2]?.access,
    ).toEqual([0, 1]);
    expect(apply(doc, { kind: "setAccess", id: "c", access: "all" }).doc.steps[2]?.access).toBe(
      "all",
    );
    const late = applyEdit(doc, { kind: "setAccess", id: "b", access: [1] });
    expect(late).toMatchObject({ ok: false, code: "bad_access" });
    if (!late.ok) expect(late.message).toContain("earlier indices are 0 to 0");
    expect(applyEdit(doc, { kind: "setAccess", id: "c", access: [0.5] })).toMatchObject({
      ok: false,
    });
  });

  it("refuses unknown ids", () => {
    expect(applyEdit(doc, { kind: "setWorker", id: "zz", worker: "w1" })).toMatchObject({
      code: "unknown_step",
    });
    expect(applyEdit(doc, { kind: "setSubtask", id: "zz", subtask: "x" })).toMatchObject({
      code: "unknown_step",
    });
    expect(applyEdit(doc, { kind: "duplicate", id: "zz" })).toMatchObject({ code: "unknown_step" });
  });

  it("setPosition records a user position; the same position returns the same document", () => {
    const r = apply(doc, { kind: "setPosition", id: "a", x: 5, y: 7 });
    expect(r.doc.positions).toEqual({ a: { x: 5, y: 7 } });
    expect(r.doc.steps).toBe(doc.steps);
    expect(apply(r.doc, { kind: "setPosition", id: "a", x: 5, y: 7 }).doc).toBe(r.doc);
    expect(apply(doc, { kind: "setPosition", id: "a", x: Number.NaN, y: 0 }).doc).toBe(doc);
  });
});

describe("reassign", () => {
  it("gives every step on one worker to another, and leaves the rest shared", () => {
    const doc = makeDoc([[], [0], "all"]);
    const twice = apply(doc, { kind: "setWorker", id: "c", worker: "w0" }).doc;
    const r = apply(twice, { kind: "reassign", from: "w0", to: "w5" });
    expect(r.doc.steps.map((s) => s.worker)).toEqual(["w5", "w1", "w5"]);
    expect(r.doc.steps[1]).toBe(twice.steps[1]);
    // Nothing else about the steps changes: ids, subtasks, access, positions.
    expect(r.doc.steps.map((s) => [s.id, s.subtask, s.access])).toEqual(
      twice.steps.map((s) => [s.id, s.subtask, s.access]),
    );
    expect(r.doc.positions).toBe(twice.positions);
    expect(r.created).toEqual([]);
  });

  it('can hand steps to no worker (""), and back', () => {
    const doc = makeDoc([[], [0]]);
    const none = apply(doc, { kind: "reassign", from: "w1", to: "" }).doc;
    expect(none.steps.map((s) => s.worker)).toEqual(["w0", ""]);
    const back = apply(none, { kind: "reassign", from: "", to: "w7" }).doc;
    expect(back.steps.map((s) => s.worker)).toEqual(["w0", "w7"]);
  });

  it("returns the same document when no step is on the worker, or from equals to", () => {
    const doc = makeDoc([[], [0]]);
    expect(apply(doc, { kind: "reassign", from: "nobody", to: "w1" }).doc).toBe(doc);
    expect(apply(doc, { kind: "reassign", from: "w0", to: "w0" }).doc).toBe(doc);
  });
});

describe("immutability", () => {
  it("no edit mutates a deeply frozen document", () => {
    const doc = makeDoc([[], [0], "all", [1, 2]], { a: { x: 0, y: 0 } });
    const before = JSON.stringify(doc);
    const edits: Edit[] = [
      { kind: "add", afterIndex: 0 },
      { kind: "delete", ids: ["b"] },
      { kind: "duplicate", id: "c" },
      { kind: "move", id: "c", direction: -1 },
      { kind: "move", id: "a", toIndex: 3 },
      { kind: "setWorker", id: "a", worker: "w4" },
      { kind: "reassign", from: "w0", to: "w9" },
      { kind: "setSubtask", id: "a", subtask: "x" },
      { kind: "setAccess", id: "d", access: [0] },
      { kind: "connect", source: "a", target: "d" },
      { kind: "connect", source: "d", target: "a" },
      { kind: "disconnect", source: "a", target: "c" },
      { kind: "setPosition", id: "a", x: 3, y: 4 },
      {
        kind: "paste",
        steps: [{ index: 1, worker: "w1", subtask: "p", access: [0], position: { x: 0, y: 0 } }],
      },
    ];
    for (const edit of edits) {
      // The frozen input makes any in-place write throw (ES modules are strict mode).
      expect(() => applyEdit(doc, edit, { makeId: counterIds() })).not.toThrow();
    }
    expect(JSON.stringify(doc)).toBe(before);
  });
});

describe("capWarning", () => {
  it("warns only past the cap", () => {
    expect(capWarning(makeDoc([[], [], [], [], []]))).toBeNull();
    expect(capWarning(makeDoc([[], [], [], [], [], []]))).toMatch(/6 steps, more than the 5/);
    expect(capWarning(makeDoc([[], [], []]), 2)).toMatch(/3 steps, more than the 2/);
  });
});
