import { z } from "zod";

/** Which earlier steps a step sees: every earlier one, or the listed 0-based indices (possibly none). */
export const AccessSchema = z.union([z.literal("all"), z.array(z.number().int().nonnegative())]);
export type Access = z.infer<typeof AccessSchema>;

/** One routing step of a Conductor workflow (SPEC 1.1). `worker` indexes the pool as shown to the Conductor. */
export const StepSchema = z.object({
  worker: z.number().int().nonnegative(),
  subtask: z.string().min(1),
  access: AccessSchema,
});
export type Step = z.infer<typeof StepSchema>;

export const WorkflowSchema = z.object({ steps: z.array(StepSchema) });
export type Workflow = z.infer<typeof WorkflowSchema>;

/** Default cap on steps, the paper's limit. */
export const DEFAULT_MAX_STEPS = 5;

/** The earlier step indices a step at `index` sees, in order. */
export function visibleSteps(access: Access, index: number): number[] {
  if (access === "all") return Array.from({ length: index }, (_, i) => i);
  return [...new Set(access)].filter((i) => i < index).sort((a, b) => a - b);
}
