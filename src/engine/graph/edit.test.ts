import { describe, expect, it } from "vitest";
import type { WorkflowDoc } from "./document.ts";
import type { Edit, EditResult } from "./edit.ts";
import { applyEdit, capWarning } from "./edit.ts";
import { counterIds, makeDoc, shape } from "./testing.ts";

function expectOk(r: EditResult): Extract<EditResult, { ok: true }> {
  if (!r.ok) throw new Error(`expected ok, got ${r.code}: ${r.message}`);
  return r;
}

const apply = (doc: WorkflowDoc, edit: Edit) =>
  expectOk(applyEdit(doc, edit, { makeId: counterIds() }));

describe("add", () => {
  it("a first step gets access [], worker 0 and an empty subtask", () => {
    const r = apply(makeDoc([]), { kind: "add" });
    expect(r.created).toEqual(["n1"]);
    expect(r.doc.steps).toEqual([{ id: "n1", worker: 0, subtask: "", access: [] }]);
  });

  it("a later step defaults to 'all', appended at the end", () => {
    const r = apply(makeDoc([[], [0]]), { kind: "add", worker: 3, subtask: "Check" });
    expect(r.doc.steps[2]).toEqual({ id: "n1", worker: 3, subtask: "Check", access: "all" });
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

  it("refuses an access list that points at a later step, and a bad worker id", () => {
    const bad = applyEdit(makeDoc([[]]), { kind: "add", access: [1] });
    expect(bad).toMatchObject({ ok: false, code: "bad_access" });
    expect(applyEdit(makeDoc([]), { kind: "add", worker: -1 })).toMatchObject({
      ok: false,
      code: "bad_worker",
    });
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
    expect(r.doc.steps[2]).toEqual({ id: "n1", worker: 1, subtask: "task b", access: [0] });
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
    const r = apply(doc, { kind: "setWorker", id: "b", worker: 6 });
    expect(r.doc.steps[1]?.worker).toBe(6);
    expect(r.doc.steps[0]).toBe(doc.steps[0]);
    expect(apply(doc, { kind: "setSubtask", id: "a", subtask: "New" }).doc.steps[0]?.subtask).toBe(
      "New",
    );
  });

  it("setting the same value returns the same document", () => {
    expect(apply(doc, { kind: "setWorker", id: "b", worker: 1 }).doc).toBe(doc);
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

  it("refuses a non-integer worker and unknown ids", () => {
    expect(applyEdit(doc, { kind: "setWorker", id: "a", worker: 1.5 })).toMatchObject({
      code: "bad_worker",
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
      { kind: "setWorker", id: "a", worker: 4 },
      { kind: "setSubtask", id: "a", subtask: "x" },
      { kind: "setAccess", id: "d", access: [0] },
      { kind: "connect", source: "a", target: "d" },
      { kind: "connect", source: "d", target: "a" },
      { kind: "disconnect", source: "a", target: "c" },
      { kind: "setPosition", id: "a", x: 3, y: 4 },
      {
        kind: "paste",
        steps: [{ index: 1, worker: 1, subtask: "p", access: [0], position: { x: 0, y: 0 } }],
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
