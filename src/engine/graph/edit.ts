import type { Result } from "../errors.ts";
import { failure } from "../errors.ts";
import type { Access } from "../schema/workflow.ts";
import { DEFAULT_MAX_STEPS } from "../constants.ts";
import type { ClipStep } from "./clipboard.ts";
import { PASTE_OFFSET, pasteSteps } from "./clipboard.ts";
import { connect, disconnect } from "./connect.ts";
import type { StepDoc, WorkflowDoc } from "./document.ts";
import { indexOfStep, newStepId, stepName } from "./document.ts";
import { insertStep, mapAccess, moveStep, withAccess } from "./order.ts";

/** Every change the graph editor can make to a document, applied by `applyEdit`. */
export type Edit =
  /** Inserts after `afterIndex` (-1: first; omitted: last). Access defaults to `[]` at index 0, else `"all"`. */
  /** `worker`: a pool worker's id; without one the step waits for the user to choose. */
  | { kind: "add"; afterIndex?: number; worker?: string; subtask?: string; access?: Access }
  /**
   * Deletes steps (later explicit access lists drop them and shift down; unknown ids are skipped)
   * and, in the same undo step, the listed edges. An edge that touches a deleted step is ignored:
   * it goes with its step, and the access of the steps that stay is left as it was. Edges between
   * steps the document does not hold are skipped.
   */
  | {
      kind: "delete";
      ids: readonly string[];
      edges?: readonly { source: string; target: string }[];
    }
  /** Inserts a copy right after the step, reading exactly what the original reads. */
  | { kind: "duplicate"; id: string }
  /** Moves one place earlier (-1) or later (+1). */
  | { kind: "move"; id: string; direction: -1 | 1 }
  /** Moves to an index (clamped to the document). */
  | { kind: "move"; id: string; toIndex: number }
  | { kind: "setWorker"; id: string; worker: string }
  /** Gives every step on worker `from` to worker `to` (a worker leaving the pool). */
  | { kind: "reassign"; from: string; to: string }
  | { kind: "setSubtask"; id: string; subtask: string }
  /** `"all"` or earlier indices (normalised: sorted, unique). */
  | { kind: "setAccess"; id: string; access: Access }
  /** The target now sees the source; may reorder (see `connect`). */
  | { kind: "connect"; source: string; target: string }
  | { kind: "disconnect"; source: string; target: string }
  /** A user-set position; the step is then left where the user put it by the automatic layout. */
  | { kind: "setPosition"; id: string; x: number; y: number }
  /** Appends copied steps with new ids (see `pasteSteps`). */
  | { kind: "paste"; steps: readonly ClipStep[] };

/**
 * The edited document and the ids of the steps the edit created (add, duplicate, paste), e.g. to
 * select them. An edit that changes nothing returns the input document itself.
 */
export type EditResult = Result<{ doc: WorkflowDoc; created: string[] }>;

export interface EditOptions {
  /** Makes ids for new steps; tests pass a deterministic one. */
  makeId?: () => string;
}

const ok = (doc: WorkflowDoc, created: string[] = []): EditResult => ({ ok: true, doc, created });
const refuse = (f: ReturnType<typeof failure>): EditResult => ({ ok: false, ...f });
const withCreated = (r: Result<{ doc: WorkflowDoc }>): EditResult =>
  r.ok ? ok(r.doc) : refuse({ code: r.code, message: r.message });

function replaceStep(doc: WorkflowDoc, index: number, step: StepDoc): WorkflowDoc {
  return { ...doc, steps: doc.steps.map((s, i) => (i === index ? step : s)) };
}

/** Checks and normalises an access value for the step at `index`; undefined when invalid. */
function checkAccess(access: Access, index: number): Access | undefined {
  if (access === "all") return "all";
  if (!access.every((i) => Number.isInteger(i) && i >= 0 && i < index)) return undefined;
  return [...new Set(access)].sort((a, b) => a - b);
}

function badAccess(doc: WorkflowDoc, index: number, access: Access): EditResult {
  const earlier =
    index === 0
      ? 'it is the first step, so only [] or "all"'
      : `earlier indices are 0 to ${index - 1}`;
  return refuse(
    failure(
      "bad_access",
      `${stepName(doc, index)} cannot have ${JSON.stringify(access)}; ${earlier}.`,
    ),
  );
}

function add(
  doc: WorkflowDoc,
  edit: Extract<Edit, { kind: "add" }>,
  makeId: () => string,
): EditResult {
  const last = doc.steps.length - 1;
  const after = Math.max(-1, Math.min(last, Math.trunc(edit.afterIndex ?? last)));
  const at = after + 1;
  const access = checkAccess(edit.access ?? (at === 0 ? [] : "all"), at);
  if (access === undefined) return badAccess(doc, at, edit.access ?? []);
  const worker = edit.worker ?? "";
  const step: StepDoc = { id: makeId(), worker, subtask: edit.subtask ?? "", access };
  return ok(insertStep(doc, at, step), [step.id]);
}

function remove(
  input: WorkflowDoc,
  ids: readonly string[],
  edges: readonly { source: string; target: string }[] = [],
): EditResult {
  const gone = new Set(ids);
  let doc = input;
  for (const e of edges) {
    if (gone.has(e.source) || gone.has(e.target)) continue;
    const cut = disconnect(doc, e.source, e.target);
    // An edge that is not the document's (a past round's, a nested workflow's) is skipped.
    if (cut.ok) doc = cut.doc;
  }
  if (!doc.steps.some((s) => gone.has(s.id))) return ok(doc);
  const newIndexOf = new Map<number, number>();
  const kept: StepDoc[] = [];
  doc.steps.forEach((s, i) => {
    if (gone.has(s.id)) return;
    newIndexOf.set(i, kept.length);
    kept.push(s);
  });
  const steps = kept.map((s) =>
    withAccess(
      s,
      mapAccess(s.access, (i) => newIndexOf.get(i)),
    ),
  );
  const positions = Object.fromEntries(
    Object.entries(doc.positions).filter(([id]) => !gone.has(id)),
  );
  return ok({ steps, positions });
}

function reassign(doc: WorkflowDoc, from: string, to: string): WorkflowDoc {
  if (from === to || !doc.steps.some((s) => s.worker === from)) return doc;
  return { ...doc, steps: doc.steps.map((s) => (s.worker === from ? { ...s, worker: to } : s)) };
}

function duplicate(doc: WorkflowDoc, index: number, makeId: () => string): EditResult {
  const original = doc.steps[index];
  if (!original) return refuse(failure("unknown_step"));
  // "all" at the copy's index would also see the original; list what the original reads instead.
  const access: Access =
    original.access === "all" ? Array.from({ length: index }, (_, i) => i) : [...original.access];
  const copy: StepDoc = { ...original, id: makeId(), access };
  const next = insertStep(doc, index + 1, copy);
  const position = doc.positions[original.id];
  if (!position) return ok(next, [copy.id]);
  const shifted = { x: position.x + PASTE_OFFSET, y: position.y + PASTE_OFFSET };
  return ok({ ...next, positions: { ...next.positions, [copy.id]: shifted } }, [copy.id]);
}

/** Edits that name one existing step. */
function editStep(
  doc: WorkflowDoc,
  index: number,
  edit: Exclude<Edit, { kind: "add" | "delete" | "paste" | "connect" | "disconnect" | "reassign" }>,
  makeId: () => string,
): EditResult {
  const step = doc.steps[index];
  if (!step) return refuse(failure("unknown_step"));
  switch (edit.kind) {
    case "duplicate":
      return duplicate(doc, index, makeId);
    case "move":
      return withCreated(
        moveStep(doc, index, "toIndex" in edit ? edit.toIndex : index + edit.direction),
      );
    case "setWorker":
      return ok(
        step.worker === edit.worker
          ? doc
          : replaceStep(doc, index, { ...step, worker: edit.worker }),
      );
    case "setSubtask":
      return ok(
        step.subtask === edit.subtask
          ? doc
          : replaceStep(doc, index, { ...step, subtask: edit.subtask }),
      );
    case "setAccess": {
      const access = checkAccess(edit.access, index);
      if (access === undefined) return badAccess(doc, index, edit.access);
      const next = withAccess(step, access);
      return ok(next === step ? doc : replaceStep(doc, index, next));
    }
    case "setPosition": {
      const old = doc.positions[step.id];
      if (!Number.isFinite(edit.x) || !Number.isFinite(edit.y)) return ok(doc);
      if (old && old.x === edit.x && old.y === edit.y) return ok(doc);
      return ok({ ...doc, positions: { ...doc.positions, [step.id]: { x: edit.x, y: edit.y } } });
    }
  }
}

/**
 * Applies one edit without mutating `doc`. Refusals (an edge or a move that would break access, an
 * invalid access list or worker id, an unknown step) are values with a code and a user message.
 */
export function applyEdit(doc: WorkflowDoc, edit: Edit, options: EditOptions = {}): EditResult {
  const makeId = options.makeId ?? newStepId;
  switch (edit.kind) {
    case "add":
      return add(doc, edit, makeId);
    case "delete":
      return remove(doc, edit.ids, edit.edges);
    case "reassign":
      return ok(reassign(doc, edit.from, edit.to));
    case "paste": {
      const pasted = pasteSteps(doc, edit.steps, makeId);
      return ok(pasted.doc, pasted.created);
    }
    case "connect":
      return withCreated(connect(doc, edit.source, edit.target));
    case "disconnect":
      return withCreated(disconnect(doc, edit.source, edit.target));
    case "duplicate":
    case "move":
    case "setWorker":
    case "setSubtask":
    case "setAccess":
    case "setPosition":
      return editStep(doc, indexOfStep(doc, edit.id), edit, makeId);
  }
}

/** A warning once the document has more steps than the Conductor protocol's cap, else null. */
export function capWarning(doc: WorkflowDoc, maxSteps = DEFAULT_MAX_STEPS): string | null {
  const n = doc.steps.length;
  if (n <= maxSteps) return null;
  return (
    `This workflow has ${n} steps, more than the ${maxSteps} a Conductor may write. ` +
    `It still runs, but consider merging or deleting steps.`
  );
}
