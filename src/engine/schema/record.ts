import { z } from "zod";
import { ChatMessageSchema, UsageSchema } from "./usage.ts";
import { ConductorConfigSchema, PoolSchema } from "./worker.ts";
import { AccessSchema } from "./workflow.ts";

export const StepStatusSchema = z.enum([
  "queued",
  "running",
  "done",
  "failed",
  "cancelled",
  "stale",
  "idle",
  /** Never ran: a step it reads failed (`step_skip`). */
  "skipped",
]);
export type StepStatus = z.infer<typeof StepStatusSchema>;

export const FailureSchema = z.object({ code: z.string(), message: z.string() });

/** A retry in progress: attempt `attempt` of `of` starts at `at + delayMs`, after `code`/`status`. */
export const RetryStateSchema = z.object({
  attempt: z.number().int().positive(),
  of: z.number().int().positive().nullable(),
  at: z.number(),
  delayMs: z.number().nonnegative(),
  code: z.string(),
  status: z.number().int().nullable(),
  message: z.string(),
});
export type RetryState = z.infer<typeof RetryStateSchema>;

export const StepRecordSchema = z.object({
  index: z.number().int().nonnegative(),
  worker: z.number().int().nonnegative(),
  workerName: z.string(),
  subtask: z.string(),
  access: AccessSchema,
  status: StepStatusSchema,
  messages: z.array(ChatMessageSchema),
  output: z.string(),
  /** The worker's reasoning, kept apart from `output` (absent in older records). */
  reasoning: z.string().optional(),
  /** Set while the step waits to retry; cleared when the next attempt starts. */
  retry: RetryStateSchema.nullable().optional(),
  startedAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
  attempts: z.number().int().nonnegative(),
  usage: UsageSchema.nullable(),
  cost: z.number().nonnegative().nullable(),
  error: FailureSchema.nullable(),
  /** A self-selected step's nested workflow (SPEC 1.6); null for an ordinary step. */
  get nested() {
    return NestedRecordSchema.nullable();
  },
});
export type StepRecord = z.infer<typeof StepRecordSchema>;

export const PlanRecordSchema = z.object({
  messages: z.array(ChatMessageSchema),
  raw: z.string(),
  /** The Conductor's reasoning, kept apart from `raw` (absent in older records). */
  reasoning: z.string().optional(),
  /** Set while the plan waits to retry; cleared when the next attempt starts. */
  retry: RetryStateSchema.nullable().optional(),
  startedAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
  usage: UsageSchema.nullable(),
  cost: z.number().nonnegative().nullable(),
  error: FailureSchema.nullable(),
  /** See the plan_finish event's `notice`. */
  notice: z.string().optional(),
});
export type PlanRecord = z.infer<typeof PlanRecordSchema>;

/** The three lists as the Conductor wrote them for one round. */
export const ListsSchema = z.object({
  model_id: z.array(z.number().int()),
  subtasks: z.array(z.string()),
  access_list: z.array(AccessSchema),
});

export const RoundRecordSchema = z.object({
  index: z.number().int().nonnegative(),
  plan: PlanRecordSchema.nullable(),
  lists: ListsSchema.nullable(),
  steps: z.array(StepRecordSchema),
  answer: z.string().nullable(),
  /** True when the Conductor accepted the previous round's answer (three empty lists). */
  accepted: z.boolean(),
});
export type RoundRecord = z.infer<typeof RoundRecordSchema>;

/** The plan-and-execute a self-selected step ran: its Conductor plan, steps and answer. */
export const NestedRecordSchema = z.object({
  depth: z.number().int().positive(),
  question: z.string(),
  rounds: z.array(RoundRecordSchema),
  answer: z.string().nullable(),
});
export type NestedRecord = z.infer<typeof NestedRecordSchema>;

export const RunStatusSchema = z.enum([
  "draft",
  "planning",
  "running",
  "done",
  "failed",
  "cancelled",
]);

export const RunRecordSchema = z.object({
  id: z.string(),
  question: z.string(),
  pool: PoolSchema,
  conductor: ConductorConfigSchema.nullable(),
  maxSteps: z.number().int().positive(),
  maxRounds: z.number().int().nonnegative(),
  status: RunStatusSchema,
  endReason: z.string().nullable(),
  message: z.string().nullable(),
  startedAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
  rounds: z.array(RoundRecordSchema),
  answer: z.string().nullable(),
  totals: z.object({
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
    cost: z.number().nonnegative(),
    estimated: z.boolean(),
    calls: z.number().int().nonnegative(),
  }),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;
