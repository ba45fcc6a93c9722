import { describe, expect, it } from "vitest";
import type { Result } from "../errors.ts";
import { connect, disconnect } from "./connect.ts";
import type { WorkflowDoc } from "./document.ts";
import { makeDoc, shape } from "../../test-support/engine/graph/graph-docs.ts";

function docOf(r: Result<{ doc: WorkflowDoc }>): WorkflowDoc {
  if (!r.ok) throw new Error(`expected ok, got ${r.code}: ${r.message}`);
  return r.doc;
}

describe("connect forwards (source earlier)", () => {
  it("adds the source to the target's list, sorted", () => {
    expect(shape(docOf(connect(makeDoc([[], [], [1]]), "a", "c")))[2]).toEqual(["c", [0, 1]]);
    expect(shape(docOf(connect(makeDoc([[], []]), "a", "b")))[1]).toEqual(["b", [0]]);
  });

  it("an existing edge or an 'all' target changes nothing and returns the same document", () => {
    const listed = makeDoc([[], [0]]);
    expect(docOf(connect(listed, "a", "b"))).toBe(listed);
    const all = makeDoc([[], "all"]);
    expect(docOf(connect(all, "a", "b"))).toBe(all);
  });

  it("refuses a self-edge and reports unknown steps", () => {
    expect(connect(makeDoc([[]]), "a", "a")).toMatchObject({ ok: false, code: "edge_refused" });
    expect(connect(makeDoc([[]]), "a", "zz")).toMatchObject({ ok: false, code: "unknown_step" });
  });
});

describe("connect backwards (source later): reorders", () => {
  it("moves the source to just before the target", () => {
    expect(shape(docOf(connect(makeDoc([[], [], []]), "c", "a")))).toEqual([
      ["c", []],
      ["a", [0]],
      ["b", []],
    ]);
  });

  it("re-indexes other steps' lists to follow the move", () => {
    // b reads a; after c moves to the front, b reads a at its new index 1.
    expect(shape(docOf(connect(makeDoc([[], [0], []]), "c", "a")))).toEqual([
      ["c", []],
      ["a", [0]],
      ["b", [1]],
    ]);
  });

  it("moves the target after the source when the source reads a step in between", () => {
    // c reads b, so c cannot jump before b; a (read by no one) moves after c instead.
    expect(shape(docOf(connect(makeDoc([[], [], [1]]), "c", "a")))).toEqual([
      ["b", []],
      ["c", [0]],
      ["a", [1]],
    ]);
  });

  it("moves the source together with what it reads when neither single move works", () => {
    // b reads a, d reads c: d travels with c; a (and b) stay after them.
    expect(shape(docOf(connect(makeDoc([[], [0], [], [2]]), "d", "a")))).toEqual([
      ["c", []],
      ["d", [0]],
      ["a", [1]],
      ["b", [2]],
    ]);
  });

  it("moves the smaller group: the target alone rather than the source's chain", () => {
    // d reads c; b reads nothing. Moving the target a after d gives b, c, d, a; moving the source's
    // group (c, d) before a would give c, d, a, b: the document tells the two strategies apart.
    expect(shape(docOf(connect(makeDoc([[], [], [], [2]]), "d", "a")))).toEqual([
      ["b", []],
      ["c", []],
      ["d", [1]],
      ["a", [2]],
    ]);
  });

  it("an 'all' target moved after the source keeps 'all' and so now sees it", () => {
    expect(shape(docOf(connect(makeDoc(["all", [], [1]]), "c", "a")))).toEqual([
      ["b", []],
      ["c", [0]],
      ["a", "all"],
    ]);
  });

  it("is refused when the source already reads the target, naming both steps", () => {
    // c reads b, b reads a: a cannot also read c in any order.
    const r = connect(makeDoc([[], [0], [1]]), "c", "a");
    expect(r).toMatchObject({ ok: false, code: "edge_refused" });
    if (!r.ok) {
      expect(r.message).toContain('step 1 ("task a") cannot read step 3 ("task c")');
      expect(r.message).toContain("already reads");
    }
  });

  it("is refused for a direct two-step loop", () => {
    expect(connect(makeDoc([[], [0]]), "b", "a")).toMatchObject({
      ok: false,
      code: "edge_refused",
    });
  });

  it("an 'all' source does not block a reorder (it adapts to any order)", () => {
    expect(shape(docOf(connect(makeDoc([[], "all"]), "b", "a")))).toEqual([
      ["b", "all"],
      ["a", [0]],
    ]);
  });
});

describe("disconnect", () => {
  it("removes the source from an explicit list", () => {
    expect(shape(docOf(disconnect(makeDoc([[], [], [0, 1]]), "a", "c")))[2]).toEqual(["c", [1]]);
  });

  it("turns 'all' into every earlier step but the source", () => {
    expect(shape(docOf(disconnect(makeDoc([[], [], [], "all"]), "b", "d")))[3]).toEqual([
      "d",
      [0, 2],
    ]);
  });

  it("a missing edge (or a backwards pair) returns the same document", () => {
    const doc = makeDoc([[], [], [0]]);
    expect(docOf(disconnect(doc, "b", "c"))).toBe(doc);
    expect(docOf(disconnect(doc, "c", "a"))).toBe(doc);
    expect(disconnect(doc, "zz", "a")).toMatchObject({ ok: false, code: "unknown_step" });
  });
});

describe("connect on many random workflows", () => {
  /** A small deterministic generator, so a failure reproduces. */
  function random(seed: number): () => number {
    let s = seed;
    return () => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s / 2147483648;
    };
  }

  /** Explicit edges as "source->target" id pairs. */
  function explicitEdges(doc: WorkflowDoc): Set<string> {
    const edges = new Set<string>();
    doc.steps.forEach((step) => {
      if (step.access === "all") return;
      for (const i of step.access) edges.add(`${doc.steps[i]?.id}->${step.id}`);
    });
    return edges;
  }

  function readsTransitively(doc: WorkflowDoc, reader: string, read: string): boolean {
    const byId = new Map(doc.steps.map((s, i) => [s.id, i]));
    const stack = [byId.get(reader) ?? -1];
    while (stack.length > 0) {
      const step = doc.steps[stack.pop() ?? -1];
      if (!step || step.access === "all") continue;
      for (const i of step.access) {
        if (doc.steps[i]?.id === read) return true;
        stack.push(i);
      }
    }
    return false;
  }

  it("either keeps every explicit edge and access valid, or refuses exactly on a loop", () => {
    const next = random(7);
    const problems: string[] = [];
    for (let trial = 0; trial < 150; trial++) {
      const n = 2 + Math.floor(next() * 5);
      const access = Array.from({ length: n }, (_, i) =>
        next() < 0.2
          ? ("all" as const)
          : Array.from({ length: i }, (_, j) => j).filter(() => next() < 0.35),
      );
      const doc = makeDoc(access);
      for (const source of doc.steps) {
        for (const target of doc.steps) {
          if (source.id === target.id) continue;
          const r = connect(doc, source.id, target.id);
          const label = `${JSON.stringify(access)} ${source.id}->${target.id}`;
          const loop = readsTransitively(doc, source.id, target.id);
          if (r.ok === loop) problems.push(`${label}: ok=${r.ok} but loop=${loop}`);
          if (!r.ok) continue;
          const valid = r.doc.steps.every(
            (s, i) => s.access === "all" || s.access.every((j) => j < i),
          );
          if (!valid) problems.push(`${label}: invalid access ${JSON.stringify(shape(r.doc))}`);
          const edges = explicitEdges(r.doc);
          if ([...explicitEdges(doc)].some((e) => !edges.has(e)))
            problems.push(`${label}: lost an edge`);
          const t = r.doc.steps.findIndex((s) => s.id === target.id);
          const s = r.doc.steps.findIndex((x) => x.id === source.id);
          const ta = r.doc.steps[t]?.access;
          if (!(s < t && (ta === "all" || ta?.includes(s))))
            problems.push(`${label}: edge missing`);
          if (r.doc.steps.length !== doc.steps.length)
            problems.push(`${label}: step count changed`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
