import type { Access } from "../schema/workflow.ts";
import type { Position, WorkflowDoc } from "./document.ts";
import { newStepId } from "./document.ts";

/**
 * A copied step, without its id. `index` is its index in the document it was copied from, and its
 * access indices refer to that document; paste remaps them.
 */
export interface ClipStep {
  index: number;
  worker: string;
  subtask: string;
  access: Access;
  position?: Position;
}

/** How far a pasted step's user position is shifted from the original's, so both stay visible. */
export const PASTE_OFFSET = 40;

/** The steps with these ids, in document order, ready for `paste`. Unknown ids are skipped. */
export function copySteps(doc: WorkflowDoc, ids: readonly string[]): ClipStep[] {
  const wanted = new Set(ids);
  return doc.steps.flatMap((step, index) => {
    if (!wanted.has(step.id)) return [];
    const access: Access = step.access === "all" ? "all" : [...step.access];
    const position = doc.positions[step.id];
    const clip: ClipStep = { index, worker: step.worker, subtask: step.subtask, access };
    return position ? [{ ...clip, position: { ...position } }] : [clip];
  });
}

/**
 * Appends copied steps at the end with new ids. Inside the pasted group, access indices are
 * remapped to the new positions; references to steps outside the group are dropped. An `"all"`
 * step becomes the explicit list of the pasted steps before it, unless it would see exactly what it
 * saw before (the document was empty and the group started at its first step), where it stays `"all"`.
 */
export function pasteSteps(
  doc: WorkflowDoc,
  clip: readonly ClipStep[],
  makeId: () => string = newStepId,
): { doc: WorkflowDoc; created: string[] } {
  if (clip.length === 0) return { doc, created: [] };
  const group = [...clip].sort((a, b) => a.index - b.index);
  const base = doc.steps.length;
  const newIndexOf = new Map<number, number>();
  group.forEach((c, j) => {
    if (!newIndexOf.has(c.index)) newIndexOf.set(c.index, base + j);
  });
  const steps = [...doc.steps];
  const positions = { ...doc.positions };
  const created: string[] = [];
  group.forEach((c, j) => {
    const at = base + j;
    let access: Access;
    if (c.access === "all") {
      const keepsMeaning = base === 0 && c.index === j;
      access = keepsMeaning ? "all" : Array.from({ length: j }, (_, k) => base + k);
    } else {
      const mapped = c.access.flatMap((i) => {
        const to = i < c.index ? newIndexOf.get(i) : undefined;
        return to !== undefined && to < at ? [to] : [];
      });
      access = [...new Set(mapped)].sort((a, b) => a - b);
    }
    const id = makeId();
    created.push(id);
    steps.push({ id, worker: c.worker, subtask: c.subtask, access });
    if (c.position) {
      positions[id] = { x: c.position.x + PASTE_OFFSET, y: c.position.y + PASTE_OFFSET };
    }
  });
  return { doc: { steps, positions }, created };
}
