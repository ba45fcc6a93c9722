import { describe, expect, it } from "vitest";
import { copySteps, pasteSteps } from "./clipboard.ts";
import { applyEdit } from "./edit.ts";
import {
  counterIds,
  deepFreeze,
  makeDoc,
  shape,
} from "../../test-support/engine/graph/graph-docs.ts";

describe("copySteps", () => {
  it("copies the chosen steps in document order, with original indices and positions", () => {
    const doc = makeDoc([[], [0], "all"], { b: { x: 1, y: 2 } });
    expect(copySteps(doc, ["c", "b", "zz"])).toEqual([
      { index: 1, worker: "w1", subtask: "task b", access: [0], position: { x: 1, y: 2 } },
      { index: 2, worker: "w2", subtask: "task c", access: "all" },
    ]);
  });
});

describe("paste", () => {
  it("appends with new ids, remaps references inside the group and drops the rest", () => {
    // Copy b, c, e of a-b-c-d-e: c reads a (outside) and b (inside); e reads c and d (outside).
    const source = makeDoc([[], [0], [0, 1], [2], [2, 3]]);
    const clip = deepFreeze(copySteps(source, ["b", "c", "e"]));
    const target = makeDoc([[], []]);
    const { doc, created } = pasteSteps(target, clip, counterIds());
    expect(created).toEqual(["n1", "n2", "n3"]);
    expect(shape(doc)).toEqual([
      ["a", []],
      ["b", []],
      ["n1", []],
      ["n2", [2]],
      ["n3", [3]],
    ]);
  });

  it("'all' becomes the pasted steps before it, unless pasting a prefix into an empty document", () => {
    const source = makeDoc([[], [], "all"]);
    const intoOther = pasteSteps(makeDoc([[]]), copySteps(source, ["b", "c"]), counterIds());
    expect(shape(intoOther.doc).map(([, a]) => a)).toEqual([[], [], [1]]);
    const wholeIntoEmpty = pasteSteps(
      makeDoc([]),
      copySteps(source, ["a", "b", "c"]),
      counterIds(),
    );
    expect(shape(wholeIntoEmpty.doc).map(([, a]) => a)).toEqual([[], [], "all"]);
  });

  it("places pasted steps next to their originals when those were placed", () => {
    const doc = makeDoc([[]], { a: { x: 100, y: 50 } });
    const r = applyEdit(
      doc,
      { kind: "paste", steps: copySteps(doc, ["a"]) },
      { makeId: counterIds() },
    );
    expect(r.ok && r.created).toEqual(["n1"]);
    expect(r.ok && r.doc.positions).toEqual({ a: { x: 100, y: 50 }, n1: { x: 140, y: 90 } });
  });

  it("an empty clipboard changes nothing", () => {
    const doc = makeDoc([[]]);
    expect(pasteSteps(doc, [])).toEqual({ doc, created: [] });
  });
});
