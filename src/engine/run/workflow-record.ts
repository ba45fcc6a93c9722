import { findWorker, shownIds } from "../conductor/shown-ids.ts";
import type { RoundRecord, RunRecord } from "../schema/record.ts";
import type { ConductorConfig, Pool } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import { emptyRecord, listsOf, stepRecord } from "./record.ts";

/** A workflow with its settings, as the editor holds it. */
export interface WorkflowInput {
  id: string;
  question: string;
  pool: Pool;
  conductor: ConductorConfig;
  maxSteps: number;
  steps: Step[];
  /** The Conductor's plan the workflow came from, when it is still this question's. */
  plan: RoundRecord["plan"];
}

/**
 * A workflow alone (no outputs) as a draft run record: one round of steps not run yet. A step on
 * no worker of the pool has no Conductor numbering, so such a workflow gets no lists.
 */
export function workflowRecord(w: WorkflowInput): RunRecord {
  const base = {
    ...emptyRecord(w.id),
    question: w.question,
    pool: w.pool,
    conductor: w.conductor,
    maxSteps: w.maxSteps,
  };
  const numbered = w.steps.every((st) => findWorker(w.pool, st.worker));
  return {
    ...base,
    rounds: [
      {
        index: 0,
        plan: w.plan,
        lists: numbered ? listsOf(w.steps, shownIds(w.pool)) : null,
        steps: w.steps.map((st, i) => stepRecord(base, st, i)),
        answer: null,
        accepted: false,
      },
    ],
  };
}
