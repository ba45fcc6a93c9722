import type { Result } from "../errors.ts";
import { failure } from "../errors.ts";
import { visibleSteps } from "../schema/workflow.ts";
import type { WorkflowDoc } from "./document.ts";
import { indexOfStep, stepName } from "./document.ts";
import { conflictMessage, permute, withAccess } from "./order.ts";

type DocResult = Result<{ doc: WorkflowDoc }>;

const unknownStep = (): DocResult => ({ ok: false, ...failure("unknown_step") });

/** Adds `source` (earlier) to the explicit access of `target`; an `"all"` target already sees it. */
function addEdge(doc: WorkflowDoc, source: number, target: number): WorkflowDoc {
  const step = doc.steps[target];
  if (!step || step.access === "all" || step.access.includes(source)) return doc;
  const access = [...step.access, source].sort((a, b) => a - b);
  const steps = doc.steps.map((s, i) => (i === target ? withAccess(s, access) : s));
  return { ...doc, steps };
}

/** Whether the step at `index` lists `other` explicitly (an `"all"` step adapts to any order). */
function reads(doc: WorkflowDoc, index: number, other: number): boolean {
  const access = doc.steps[index]?.access;
  return access !== undefined && access !== "all" && access.includes(other);
}

/**
 * For source `s` after target `t`: the steps strictly between them that must travel with the source
 * (its explicit ancestors) and with the target (its explicit descendants), or null when the source
 * already reads the target, directly or through other steps, so no order can satisfy both.
 */
function blocks(
  doc: WorkflowDoc,
  s: number,
  t: number,
): { withSource: number[]; withTarget: number[] } | null {
  const withTarget: number[] = [];
  const readsTarget = (i: number): boolean =>
    reads(doc, i, t) || withTarget.some((d) => reads(doc, i, d));
  for (let i = t + 1; i < s; i++) if (readsTarget(i)) withTarget.push(i);
  if (readsTarget(s)) return null;
  const ancestors = new Set<number>();
  for (let i = s; i > t; i--) {
    if (i !== s && !ancestors.has(i)) continue;
    const access = doc.steps[i]?.access;
    if (access !== undefined && access !== "all")
      for (const j of access) if (j > t) ancestors.add(j);
  }
  return { withSource: [...ancestors].sort((a, b) => a - b), withTarget };
}

/**
 * Draws an edge: the target step now sees the source step. When the source comes after the target,
 * the steps are reordered first, moving as little as needed: either the source, with the steps
 * between that it reads (directly or not), goes to just before the target, or the target, with the
 * steps between that read it, goes to just after the source; the smaller group moves (ties: the
 * source's). Explicit lists are re-indexed; `"all"` stays `"all"`. Refused with `edge_refused` only
 * when the source already reads the target, directly or through other steps. An edge that already
 * exists (or an `"all"` target that comes after the source) returns `doc` itself.
 */
export function connect(doc: WorkflowDoc, sourceId: string, targetId: string): DocResult {
  const source = indexOfStep(doc, sourceId);
  const target = indexOfStep(doc, targetId);
  if (source < 0 || target < 0) return unknownStep();
  if (source === target) {
    return {
      ok: false,
      ...failure("edge_refused", `${stepName(doc, source)} cannot read itself.`),
    };
  }
  if (source < target) return { ok: true, doc: addEdge(doc, source, target) };

  const found = blocks(doc, source, target);
  if (!found) {
    const detail =
      `${stepName(doc, target)} cannot read ${stepName(doc, source)}, because ` +
      `${stepName(doc, source)} already reads ${stepName(doc, target)}, directly or through other steps.`;
    return { ok: false, ...failure("edge_refused", detail) };
  }
  const all = Array.from({ length: doc.steps.length }, (_, i) => i);
  const before = all.slice(0, target);
  const between = all.slice(target + 1, source);
  const after = all.slice(source + 1);
  const { withSource, withTarget } = found;
  const order =
    withSource.length <= withTarget.length
      ? [
          ...before,
          ...withSource,
          source,
          target,
          ...between.filter((i) => !withSource.includes(i)),
          ...after,
        ]
      : [
          ...before,
          ...between.filter((i) => !withTarget.includes(i)),
          source,
          target,
          ...withTarget,
          ...after,
        ];
  const moved = permute(doc, order);
  // Unreachable by construction; kept so a bug shows as a refusal rather than a corrupt document.
  if (!moved.ok) return { ok: false, ...failure("edge_refused", conflictMessage(doc, moved)) };
  const next = moved.doc;
  return { ok: true, doc: addEdge(next, indexOfStep(next, sourceId), indexOfStep(next, targetId)) };
}

/**
 * Removes an edge: the target no longer sees the source. An `"all"` target becomes the explicit list
 * of every earlier step but the source. An edge that does not exist returns `doc` itself.
 */
export function disconnect(doc: WorkflowDoc, sourceId: string, targetId: string): DocResult {
  const source = indexOfStep(doc, sourceId);
  const target = indexOfStep(doc, targetId);
  if (source < 0 || target < 0) return unknownStep();
  const step = doc.steps[target];
  if (!step || source >= target) return { ok: true, doc };
  const seen = visibleSteps(step.access, target);
  if (!seen.includes(source)) return { ok: true, doc };
  const access = seen.filter((i) => i !== source);
  const steps = doc.steps.map((s, i) => (i === target ? withAccess(s, access) : s));
  return { ok: true, doc: { ...doc, steps } };
}
