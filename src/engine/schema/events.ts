import { z } from "zod";
import { ChatMessageSchema, UsageSchema } from "./usage.ts";
import { ConductorConfigSchema, PoolSchema } from "./worker.ts";
import { StepSchema } from "./workflow.ts";

const ErrorCodeSchema = z.string();
const at = z.number(); // epoch milliseconds
const ref = { round: z.number().int().nonnegative(), step: z.number().int().nonnegative() };

/** The typed events a run emits, in order; the recorder folds them into a run record. */
export const RunEventSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("run_start"),
    at,
    runId: z.string(),
    question: z.string(),
    pool: PoolSchema,
    conductor: ConductorConfigSchema.optional(),
    maxSteps: z.number().int().positive(),
    maxRounds: z.number().int().nonnegative(),
  }),
  z.object({
    type: z.literal("plan_start"),
    at,
    round: ref.round,
    messages: z.array(ChatMessageSchema),
  }),
  z.object({ type: z.literal("plan_delta"), round: ref.round, text: z.string() }),
  z.object({
    type: z.literal("plan_finish"),
    at,
    round: ref.round,
    raw: z.string(),
    usage: UsageSchema,
    cost: z.number().nonnegative(),
    steps: z.array(StepSchema).optional(),
    error: z.object({ code: ErrorCodeSchema, message: z.string() }).optional(),
  }),
  z.object({
    type: z.literal("round_start"),
    at,
    round: ref.round,
    steps: z.array(StepSchema),
    /** Steps whose recorded results are kept rather than re-run (re-run from a step). */
    keep: z.array(z.number().int().nonnegative()).optional(),
  }),
  z.object({ type: z.literal("step_queued"), ...ref }),
  z.object({
    type: z.literal("step_start"),
    at,
    ...ref,
    attempt: z.number().int().positive(),
    messages: z.array(ChatMessageSchema),
  }),
  z.object({ type: z.literal("step_delta"), ...ref, text: z.string() }),
  z.object({
    type: z.literal("step_retry"),
    at,
    ...ref,
    attempt: z.number().int().positive(),
    delayMs: z.number().nonnegative(),
    code: ErrorCodeSchema,
    message: z.string(),
  }),
  z.object({
    type: z.literal("step_finish"),
    at,
    ...ref,
    output: z.string(),
    usage: UsageSchema,
    cost: z.number().nonnegative(),
  }),
  z.object({
    type: z.literal("step_error"),
    at,
    ...ref,
    code: ErrorCodeSchema,
    message: z.string(),
  }),
  z.object({ type: z.literal("step_cancel"), at, ...ref }),
  z.object({
    type: z.literal("round_finish"),
    at,
    round: ref.round,
    answer: z.string().nullable(),
  }),
  z.object({
    type: z.literal("run_finish"),
    at,
    status: z.enum(["done", "failed", "cancelled"]),
    reason: z.enum([
      "accepted",
      "round_cap",
      "no_rounds",
      "plan_error",
      "step_error",
      "cancelled",
      "budget",
    ]),
    answer: z.string().nullable(),
    message: z.string().optional(),
  }),
]);
export type RunEvent = z.infer<typeof RunEventSchema>;
export type RunEventType = RunEvent["type"];
export type EventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;
