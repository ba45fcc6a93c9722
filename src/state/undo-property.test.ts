import { beforeEach, describe, expect, it } from "vitest";
import type { WorkflowDoc } from "../engine/graph/document.ts";
import type { Edit } from "../engine/graph/edit.ts";
import { createHistory } from "../engine/graph/history.ts";
import { seededRandom } from "../engine/eval/dataset/shuffle.ts";
import { makeDoc } from "../test-support/engine/graph/graph-docs.ts";
import type { Access } from "../engine/schema/workflow.ts";
import { useStudio } from "./slices/store.ts";

const initial = useStudio.getState();

/** A small deterministic PRNG (mulberry32), so a failing seed can be replayed. */
const rng = seededRandom;

const present = () => useStudio.getState().history.present;

/** A random edit of the present document: any kind the editor makes, valid or not. */
function randomEdit(rand: () => number, doc: WorkflowDoc): Edit {
  const n = doc.steps.length;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const id = () => (n ? pick(doc.steps).id : "missing");
  const index = () => Math.floor(rand() * (n + 1));
  const access = (): Access => {
    if (rand() < 0.4) return "all";
    const at = Math.max(1, index());
    return Array.from({ length: at }, (_, i) => i).filter(() => rand() < 0.5);
  };
  const edges = () =>
    n > 1 && rand() < 0.5 ? [{ source: doc.steps[0]!.id, target: pick(doc.steps).id }] : [];
  switch (
    pick([
      "add",
      "delete",
      "deleteWithEdges",
      "duplicate",
      "move",
      "setWorker",
      "setSubtask",
      "setAccess",
      "connect",
      "disconnect",
      "setPosition",
    ] as const)
  ) {
    case "add":
      return { kind: "add", afterIndex: index() - 1, worker: `w${index()}`, access: access() };
    case "delete":
      return { kind: "delete", ids: [id()] };
    case "deleteWithEdges":
      return { kind: "delete", ids: rand() < 0.5 ? [id()] : [], edges: edges() };
    case "duplicate":
      return { kind: "duplicate", id: id() };
    case "move":
      return rand() < 0.5
        ? { kind: "move", id: id(), direction: rand() < 0.5 ? -1 : 1 }
        : { kind: "move", id: id(), toIndex: index() };
    case "setWorker":
      return { kind: "setWorker", id: id(), worker: `w${index()}` };
    case "setSubtask":
      return { kind: "setSubtask", id: id(), subtask: `task ${Math.floor(rand() * 5)}` };
    case "setAccess":
      return { kind: "setAccess", id: id(), access: access() };
    case "connect":
      return { kind: "connect", source: id(), target: id() };
    case "disconnect":
      return { kind: "disconnect", source: id(), target: id() };
    case "setPosition":
      return { kind: "setPosition", id: id(), x: Math.floor(rand() * 500), y: 10 };
  }
}

beforeEach(() => {
  useStudio.setState(initial, true);
});

describe("undo and redo over random edit sequences", () => {
  it("each undo returns exactly the document before the edit, each redo the one after", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rand = rng(seed);
      useStudio.setState({ history: createHistory(makeDoc([[], [], "all"])) });
      // Every document the user saw, in order: an edit that changes nothing adds none.
      const seen: WorkflowDoc[] = [structuredClone(present())];
      for (let k = 0; k < 25; k++) {
        const before = present();
        useStudio.getState().edit(randomEdit(rand, before));
        if (present() !== before) seen.push(structuredClone(present()));
      }
      for (let k = seen.length - 2; k >= 0; k--) {
        useStudio.getState().undo();
        expect(present(), `seed ${seed}, undo to ${k}`).toEqual(seen[k]);
      }
      for (let k = 1; k < seen.length; k++) {
        useStudio.getState().redo();
        expect(present(), `seed ${seed}, redo to ${k}`).toEqual(seen[k]);
      }
    }
  });

  it("a delete of a step with edges that touch it leaves the other steps' access as it was", () => {
    useStudio.setState({ history: createHistory(makeDoc([[], [], "all"])) });
    const [a, b, c] = present().steps.map((s) => s.id);
    // What React Flow hands over on Delete: the step and every edge of it.
    useStudio.getState().edit({
      kind: "delete",
      ids: [b!],
      edges: [
        { source: a!, target: b! },
        { source: b!, target: c! },
      ],
    });
    expect(present().steps.map((s) => s.access)).toEqual([[], "all"]);
    useStudio.getState().undo();
    expect(present()).toEqual(makeDoc([[], [], "all"]));
  });
});
