import { visibleSteps } from "../schema/workflow.ts";
import type { WorkflowDoc } from "./document.ts";
import { indexOfStep, visibleIds } from "./document.ts";

/** One access edge: `target` sees `source`. `bundle`: the target's access is `"all"`. */
export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  bundle: boolean;
}

/** The id of the edge from `source` to `target` (stable across reorders). */
export function edgeId(source: string, target: string): string {
  return `${source}->${target}`;
}

/** One edge per visible earlier step of every step, in document order of targets then sources. */
export function edgesOf(doc: WorkflowDoc): GraphEdge[] {
  return doc.steps.flatMap((step, index) =>
    visibleIds(doc, index).map((source) => ({
      id: edgeId(source, step.id),
      source,
      target: step.id,
      bundle: step.access === "all",
    })),
  );
}

/** Indices of every step that sees the step at `stepIndex`, directly or transitively, ascending. */
export function dependants(doc: WorkflowDoc, stepIndex: number): number[] {
  const reached = new Set([stepIndex]);
  const found: number[] = [];
  // Edges only point forward, so one pass in order reaches every transitive reader.
  for (let i = stepIndex + 1; i < doc.steps.length; i++) {
    const step = doc.steps[i];
    if (step && visibleSteps(step.access, i).some((j) => reached.has(j))) {
      reached.add(i);
      found.push(i);
    }
  }
  return found;
}

/**
 * Ids of the steps in `after` whose earlier result no longer holds: the worker or subtask changed,
 * or what the step reads changed (which steps, or their order), plus every step that sees one of
 * them, directly or transitively. New steps are not listed (they have no result); moves that keep
 * what a step reads, position changes and re-indexing alone mark nothing.
 */
export function staleAfterEdit(before: WorkflowDoc, after: WorkflowDoc): Set<string> {
  const stale = new Set<string>();
  after.steps.forEach((step, index) => {
    const was = indexOfStep(before, step.id);
    const old = before.steps[was];
    if (!old) return;
    const now = visibleIds(after, index);
    const then = visibleIds(before, was);
    const readsChanged = now.length !== then.length || now.some((id, k) => id !== then[k]);
    if (!readsChanged && old.worker === step.worker && old.subtask === step.subtask) return;
    stale.add(step.id);
    for (const i of dependants(after, index)) {
      const dependant = after.steps[i];
      if (dependant && before.steps.some((s) => s.id === dependant.id)) stale.add(dependant.id);
    }
  });
  return stale;
}
