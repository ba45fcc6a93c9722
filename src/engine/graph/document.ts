import type { Layout } from "../schema/record.ts";
import type { Access, Step } from "../schema/workflow.ts";
import { visibleSteps } from "../schema/workflow.ts";
import { newId } from "../ids.ts";

/**
 * One step of the editable document. `id` is stable across reorders; `access` uses indices into the
 * document's current order, and an explicit list is kept sorted, unique and strictly earlier.
 */
export interface StepDoc {
  id: string;
  /** The id of the step's pool worker; "" until one is chosen. */
  worker: string;
  subtask: string;
  access: Access;
}

export interface Position {
  x: number;
  y: number;
}

/**
 * What undo/redo and export see: the steps (meaning) and the positions the user set by hand (layout),
 * kept apart. A step without an entry in `positions` is placed by the automatic layout.
 */
export interface WorkflowDoc {
  steps: StepDoc[];
  positions: Record<string, Position>;
}

/** A fresh step id (ids.ts). */
export function newStepId(): string {
  return newId("s");
}

/** A document with no steps. */
export function emptyDoc(): WorkflowDoc {
  return { steps: [], positions: {} };
}

/**
 * Builds a document from parsed steps, giving each a new id. Explicit access lists are normalised
 * (sorted, unique, earlier indices only); `"all"` stays `"all"`.
 */
export function docFromSteps(
  steps: readonly Step[],
  makeId: () => string = newStepId,
): WorkflowDoc {
  return {
    steps: steps.map((step, index) => ({
      id: makeId(),
      worker: step.worker,
      subtask: step.subtask,
      access: normaliseAccess(step.access, index),
    })),
    positions: {},
  };
}

/** The plain workflow steps of a document, in order, as the engine runs and exports them. */
export function stepsOf(doc: WorkflowDoc): Step[] {
  return doc.steps.map((s) => ({
    worker: s.worker,
    subtask: s.subtask,
    access: s.access === "all" ? "all" : [...s.access],
  }));
}

/** The index of the step with this id, or -1. */
export function indexOfStep(doc: WorkflowDoc, id: string): number {
  return doc.steps.findIndex((s) => s.id === id);
}

/** `"all"` unchanged; an explicit list sorted, de-duplicated and cut to indices below `index`. */
export function normaliseAccess(access: Access, index: number): Access {
  return access === "all" ? "all" : visibleSteps(access, index);
}

/** The ids of the steps the step at `index` sees, in document order. */
export function visibleIds(doc: WorkflowDoc, index: number): string[] {
  const step = doc.steps[index];
  if (!step) return [];
  return visibleSteps(step.access, index).flatMap((i) => {
    const seen = doc.steps[i];
    return seen ? [seen.id] : [];
  });
}

/** A short name for a step in messages: its 1-based number and the start of its subtask. */
export function stepName(doc: WorkflowDoc, index: number): string {
  const subtask = doc.steps[index]?.subtask.trim() ?? "";
  if (subtask === "") return `step ${index + 1}`;
  const short = subtask.length > 40 ? `${subtask.slice(0, 39)}…` : subtask;
  return `step ${index + 1} ("${short}")`;
}

/** The positions set by hand, by step index, as an export keeps them; undefined when none. */
export function layoutOf(doc: WorkflowDoc): Layout | undefined {
  const positions: Layout["positions"] = {};
  doc.steps.forEach((step, index) => {
    const p = doc.positions[step.id];
    if (p) positions[String(index)] = { x: p.x, y: p.y };
  });
  return Object.keys(positions).length ? { positions } : undefined;
}

/** A document with an export's positions put back on its steps (by index). */
export function withLayout(doc: WorkflowDoc, layout: Layout | undefined): WorkflowDoc {
  if (!layout) return doc;
  const positions: WorkflowDoc["positions"] = {};
  for (const [index, p] of Object.entries(layout.positions)) {
    const step = doc.steps[Number(index)];
    if (step) positions[step.id] = { x: p.x, y: p.y };
  }
  return { ...doc, positions };
}
