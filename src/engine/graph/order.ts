import type { Result } from "../errors.ts";
import { failure } from "../errors.ts";
import type { Access } from "../schema/workflow.ts";
import type { StepDoc, WorkflowDoc } from "./document.ts";
import { stepName } from "./document.ts";

/**
 * Re-indexes an explicit access list through `map` (old index to new, or undefined to drop it),
 * keeping it sorted and unique. `"all"` stays `"all"`: it always means every earlier step.
 */
export function mapAccess(access: Access, map: (index: number) => number | undefined): Access {
  if (access === "all") return "all";
  const mapped = new Set<number>();
  for (const i of access) {
    const to = map(i);
    if (to !== undefined) mapped.add(to);
  }
  return [...mapped].sort((a, b) => a - b);
}

function sameAccess(a: Access, b: Access): boolean {
  if (a === "all" || b === "all") return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Returns `step` itself when its access is unchanged, so untouched steps are shared between docs. */
export function withAccess(step: StepDoc, access: Access): StepDoc {
  return sameAccess(step.access, access) ? step : { ...step, access };
}

/** Inserts `step` at `index`, shifting every later explicit reference to index >= `index` up by one. */
export function insertStep(doc: WorkflowDoc, index: number, step: StepDoc): WorkflowDoc {
  const shift = (i: number): number => (i >= index ? i + 1 : i);
  const steps = doc.steps.map((s) => withAccess(s, mapAccess(s.access, shift)));
  steps.splice(index, 0, step);
  return { ...doc, steps };
}

/** A reorder that failed: `step` (old index) would see `sees` (old index) placed after it. */
export interface Conflict {
  ok: false;
  step: number;
  sees: number;
}

/**
 * Reorders the steps so that new position k holds old step `order[k]` (a permutation), re-indexing
 * every explicit access list to follow its steps. Fails with the first step that would then see a
 * later step. `"all"` steps stay `"all"`, so they see whatever is earlier in the new order.
 */
export function permute(
  doc: WorkflowDoc,
  order: readonly number[],
): { ok: true; doc: WorkflowDoc } | Conflict {
  const newIndexOf = new Map<number, number>();
  order.forEach((old, k) => newIndexOf.set(old, k));
  const steps: StepDoc[] = [];
  for (const [k, old] of order.entries()) {
    const step = doc.steps[old];
    if (!step) continue;
    if (step.access !== "all") {
      const late = step.access.find((i) => (newIndexOf.get(i) ?? -1) >= k);
      if (late !== undefined) return { ok: false, step: old, sees: late };
    }
    steps.push(
      withAccess(
        step,
        mapAccess(step.access, (i) => newIndexOf.get(i)),
      ),
    );
  }
  return { ok: true, doc: { ...doc, steps } };
}

/** The permutation that moves the step at `from` to `to`, the others keeping their relative order. */
export function moveOrder(length: number, from: number, to: number): number[] {
  const order = Array.from({ length }, (_, i) => i);
  order.splice(from, 1);
  order.splice(to, 0, from);
  return order;
}

/** A user-facing explanation of a reorder conflict, in the old order's numbering. */
export function conflictMessage(doc: WorkflowDoc, conflict: Conflict): string {
  return `${stepName(doc, conflict.step)} reads ${stepName(doc, conflict.sees)}, which would then come after it.`;
}

/**
 * Moves the step at `from` to index `to` (clamped). Refused with `move_refused` when an explicit
 * access list would then point at a later step; moving to where it already is returns `doc` itself.
 */
export function moveStep(doc: WorkflowDoc, from: number, to: number): Result<{ doc: WorkflowDoc }> {
  const target = Math.max(0, Math.min(doc.steps.length - 1, Math.trunc(to)));
  if (target === from) return { ok: true, doc };
  const moved = permute(doc, moveOrder(doc.steps.length, from, target));
  if (!moved.ok) return { ok: false, ...failure("move_refused", conflictMessage(doc, moved)) };
  return moved;
}
