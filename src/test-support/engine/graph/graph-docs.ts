import type { Access } from "../../../engine/schema/workflow.ts";
import type { WorkflowDoc } from "../../../engine/graph/document.ts";

/** Test helper: an id maker that yields "n1", "n2", ... */
export function counterIds(prefix = "n"): () => string {
  let n = 0;
  return () => `${prefix}${++n}`;
}

/** Test helper: freezes a value and everything inside it, so any mutation throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Test helper: a frozen document whose steps have ids "a", "b", "c", ..., worker "w<index>" and
 * subtask "task a", ..., with the given access values.
 */
export function makeDoc(access: Access[], positions: WorkflowDoc["positions"] = {}): WorkflowDoc {
  const steps = access.map((a, i) => {
    const id = String.fromCharCode(97 + i);
    return { id, worker: `w${i}`, subtask: `task ${id}`, access: a };
  });
  return deepFreeze({ steps, positions });
}

/** Test helper: the ids and access values of a document, compact enough to compare in one line. */
export function shape(doc: WorkflowDoc): [string, Access][] {
  return doc.steps.map((s) => [s.id, s.access]);
}
