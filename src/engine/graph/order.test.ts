import { describe, expect, it } from "vitest";
import { insertStep, mapAccess, moveOrder, moveStep, permute } from "./order.ts";
import { makeDoc, shape } from "../../test-support/engine/graph/graph-docs.ts";

describe("order helpers", () => {
  it("mapAccess re-indexes, drops, sorts and de-duplicates; 'all' stays", () => {
    expect(mapAccess([0, 2, 3], (i) => (i === 2 ? undefined : 3 - i))).toEqual([0, 3]);
    expect(mapAccess([0, 1], () => 0)).toEqual([0]);
    expect(mapAccess("all", () => undefined)).toBe("all");
  });

  it("moveOrder builds the permutation of a single move", () => {
    expect(moveOrder(4, 3, 1)).toEqual([0, 3, 1, 2]);
    expect(moveOrder(4, 0, 2)).toEqual([1, 2, 0, 3]);
  });

  it("permute reports the first step that would see a later one", () => {
    const doc = makeDoc([[], [], [0, 1]]);
    expect(permute(doc, [2, 0, 1])).toEqual({ ok: false, step: 2, sees: 0 });
    const ok = permute(doc, [1, 0, 2]);
    expect(ok.ok && shape(ok.doc)).toEqual([
      ["b", []],
      ["a", []],
      ["c", [0, 1]],
    ]);
  });

  it("unchanged steps are shared between the old and the new document", () => {
    const doc = makeDoc([[], [], "all"]);
    const next = insertStep(doc, 3, { id: "x", worker: "w0", subtask: "", access: [] });
    expect(next.steps[0]).toBe(doc.steps[0]);
    expect(next.steps[2]).toBe(doc.steps[2]);
  });

  it("moveStep to the same index returns the same document", () => {
    const doc = makeDoc([[], []]);
    expect(moveStep(doc, 1, 1)).toEqual({ ok: true, doc });
  });
});
