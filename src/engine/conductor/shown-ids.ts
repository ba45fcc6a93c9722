import type { PlannedStep, Step } from "../schema/workflow.ts";

/**
 * The Conductor numbers workers by their place in the pool it is shown (`Model id 0`, `Model id 1`,
 * ...); a workflow refers to a worker by its id. These map between the two at the two points where
 * the numbers exist: when a prompt is built and when a plan is parsed (docs/protocol.md §2,
 * "Workers by identity").
 */

/** The ids of a pool in the order the Conductor is shown them: `model_id` n stands for `ids[n]`. */
export function shownIds(pool: readonly { id: string }[]): string[] {
  return pool.map((w) => w.id);
}

/** The Conductor's steps with each `model_id` replaced by the id it stood for (the parser checked the range). */
export function stepsByWorkerId(planned: readonly PlannedStep[], ids: readonly string[]): Step[] {
  return planned.map((s) => {
    const worker = ids[s.worker];
    if (worker === undefined)
      throw new RangeError(`model id ${s.worker} is outside a pool of ${ids.length}`);
    return { worker, subtask: s.subtask, access: s.access };
  });
}

/**
 * The worker id `model_id` n stands for, or `model-id-N` where `ids` has none there (an old file's
 * step past its pool's end): a name no pool has, which validation then reports.
 */
export function workerIdAt(ids: readonly (string | undefined)[], n: number): string {
  return ids[n] ?? `model-id-${n}`;
}

/** A pool's worker with this id, if the pool has it. */
export function findWorker<W extends { id: string }>(
  pool: readonly W[],
  id: string,
): W | undefined {
  return pool.find((w) => w.id === id);
}

/** The Conductor's number for a worker id in a pool as shown, or -1 when the pool lacks it. */
export function modelIdOf(ids: readonly string[], worker: string): number {
  return ids.indexOf(worker);
}

/**
 * Steps as the Conductor numbers them for a pool as shown (a refinement round's previous workflow,
 * a training sample). A worker that left the pool is written as -1, a number no prompt names.
 */
export function numberedSteps(steps: readonly Step[], ids: readonly string[]): PlannedStep[] {
  return steps.map((s) => ({
    worker: modelIdOf(ids, s.worker),
    subtask: s.subtask,
    access: s.access,
  }));
}
