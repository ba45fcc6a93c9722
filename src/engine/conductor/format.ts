import type { PlannedStep } from "../schema/workflow.ts";

/**
 * A workflow written as the three Python-style lists of docs/protocol.md §1.2, e.g. for a
 * hand-built workflow that enters a refinement conversation as the Conductor's own turn. JSON
 * strings are valid Python literals, and `parseConductorOutput` reads the text back to the same
 * steps.
 */
export function formatLists(steps: readonly PlannedStep[]): string {
  const ids = steps.map((s) => s.worker);
  const subtasks = steps.map((s) => s.subtask);
  const access = steps.map((s) => (s.access === "all" ? ["all"] : s.access));
  return [
    `model_id = ${JSON.stringify(ids)}`,
    `subtasks = ${JSON.stringify(subtasks)}`,
    `access_list = ${JSON.stringify(access)}`,
  ].join("\n");
}
