import { z } from "zod";

/** Which earlier steps a step sees: every earlier one, or the listed 0-based indices (possibly none). */
export const AccessSchema = z.union([z.literal("all"), z.array(z.number().int().nonnegative())]);
export type Access = z.infer<typeof AccessSchema>;

/**
 * One routing step of a workflow (docs/protocol.md §1.1). `worker` is the id of its pool worker, so
 * editing the pool (moving, adding, removing a worker) never rewires a step; the Conductor's
 * `model_id` numbers exist only in its prompt and plan, and are mapped by `conductor/ids.ts`. An
 * empty id is a step whose worker is not chosen yet (a step added to an empty pool); no worker has
 * it, so it never runs.
 */
export const StepSchema = z.object({
  worker: z.string(),
  subtask: z.string().min(1),
  access: AccessSchema,
});
export type Step = z.infer<typeof StepSchema>;

/** A step as the Conductor wrote it: `worker` is its `model_id`, an index into the pool it was shown. */
export interface PlannedStep {
  worker: number;
  subtask: string;
  access: Access;
}

/** The earlier step indices a step at `index` sees, in order. */
export function visibleSteps(access: Access, index: number): number[] {
  if (access === "all") return Array.from({ length: index }, (_, i) => i);
  return [...new Set(access)].filter((i) => i < index).sort((a, b) => a - b);
}
