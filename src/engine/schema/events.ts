import { z } from "zod";
import { EndReasonSchema } from "../errors.ts";
import { ChatMessageSchema, UsageSchema } from "./usage.ts";
import { ConductorConfigSchema, PoolSchema } from "./worker.ts";
import { KeptRefSchema, PromptRecordSchema, RoundRecordSchema, RunKindSchema } from "./record.ts";
import { StepSchema } from "./workflow.ts";

const ErrorCodeSchema = z.string();
const at = z.number(); // epoch milliseconds
const ref = { round: z.number().int().nonnegative(), step: z.number().int().nonnegative() };

/**
 * Where a nested workflow sits (docs/protocol.md §1.6 self-selection): the chain of (round, step)
 * from the top level down to the step whose worker is the Conductor itself. Absent at the top
 * level.
 */
export const ParentPathSchema = z.array(z.object(ref));
export type ParentPath = z.infer<typeof ParentPathSchema>;
const scoped = { parent: ParentPathSchema.optional() };

/**
 * A retry about to happen: attempt `attempt` of `of` starts after `delayMs`, because of the error
 * `code` (`status` when it carried an HTTP status). The dropped attempt's partial text is abandoned.
 */
const retry = {
  attempt: z.number().int().positive(),
  of: z.number().int().positive().optional(),
  delayMs: z.number().nonnegative(),
  code: ErrorCodeSchema,
  status: z.number().int().optional(),
  message: z.string(),
};

/**
 * On a reasoning event: the output streamed so far in this attempt was this reasoning, not answer
 * (a bare `</think>` arrived whose `<think>` was in the chat template, as with DeepSeek-R1). The
 * streamed output is dropped and `text` joins the reasoning; later deltas are the answer.
 */
const reclassified = { reclassified: z.literal(true).optional() };

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
    kind: RunKindSchema.optional(),
    parentId: z.string().nullable().optional(),
    prompt: PromptRecordSchema.nullable().optional(),
    /** What a continuing run starts from: the parent's rounds it keeps, and which parts it kept. */
    seed: z.object({ rounds: z.array(RoundRecordSchema), kept: z.array(KeptRefSchema) }).optional(),
  }),
  z.object({
    type: z.literal("plan_start"),
    ...scoped,
    at,
    round: ref.round,
    /** The messages as sent. */
    messages: z.array(ChatMessageSchema),
    /**
     * Under a plan grammar that writes the opening as its fixed prefix: that opening, whose folded
     * instruction `messages` lack (the conversation a later round continues still has it). Absent
     * when the messages are the conversation as it is (and in records from before it was kept).
     */
    opening: z.string().optional(),
  }),
  z.object({ type: z.literal("plan_delta"), ...scoped, round: ref.round, text: z.string() }),
  /** The Conductor's reasoning, streamed apart from its output (reasoning fields, `<think>`). */
  z.object({
    type: z.literal("plan_reasoning"),
    ...scoped,
    round: ref.round,
    text: z.string(),
    ...reclassified,
  }),
  z.object({
    type: z.literal("plan_retry"),
    ...scoped,
    at,
    round: ref.round,
    ...retry,
  }),
  z.object({
    type: z.literal("plan_finish"),
    ...scoped,
    at,
    round: ref.round,
    raw: z.string(),
    /** The whole reasoning of the call that produced `raw`, when the Conductor reasoned. */
    reasoning: z.string().optional(),
    usage: UsageSchema,
    cost: z.number().nonnegative(),
    steps: z.array(StepSchema).optional(),
    /** The pool's worker ids as the prompt showed them, with `steps`: model_id n stood for `workerIds[n]`. */
    workerIds: z.array(z.string()).optional(),
    error: z.object({ code: ErrorCodeSchema, message: z.string() }).optional(),
    /** Something the user should know about how the plan was made (e.g. the grammar was dropped). */
    notice: z.string().optional(),
  }),
  z.object({
    type: z.literal("round_start"),
    ...scoped,
    at,
    round: ref.round,
    steps: z.array(StepSchema),
    /** Steps whose recorded results are kept rather than re-run (re-run from a step). */
    keep: z.array(z.number().int().nonnegative()).optional(),
    /** The Conductor could not plan: one worker answers alone in its place (see FallbackPolicy). */
    fallback: z
      .object({
        worker: z.string(),
        reason: z.object({ code: ErrorCodeSchema, message: z.string() }),
      })
      .optional(),
  }),
  z.object({ type: z.literal("step_queued"), ...scoped, ...ref }),
  z.object({
    type: z.literal("step_start"),
    ...scoped,
    at,
    ...ref,
    attempt: z.number().int().positive(),
    messages: z.array(ChatMessageSchema),
  }),
  z.object({ type: z.literal("step_delta"), ...scoped, ...ref, text: z.string() }),
  /** A worker's reasoning, streamed apart from its answer; later steps never read it. */
  z.object({
    type: z.literal("step_reasoning"),
    ...scoped,
    ...ref,
    text: z.string(),
    ...reclassified,
  }),
  z.object({ type: z.literal("step_retry"), ...scoped, at, ...ref, ...retry }),
  z.object({
    type: z.literal("step_finish"),
    ...scoped,
    at,
    ...ref,
    output: z.string(),
    /** The whole reasoning of the attempt that produced `output`, when the worker reasoned. */
    reasoning: z.string().optional(),
    usage: UsageSchema,
    cost: z.number().nonnegative(),
    /** Usage and cost summed over a nested workflow whose calls were already counted. */
    aggregate: z.boolean().optional(),
  }),
  z.object({
    type: z.literal("step_error"),
    ...scoped,
    at,
    ...ref,
    code: ErrorCodeSchema,
    message: z.string(),
  }),
  z.object({ type: z.literal("step_cancel"), ...scoped, at, ...ref }),
  /** The step never ran because a step it reads failed (code `upstream_failed`). */
  z.object({
    type: z.literal("step_skip"),
    ...scoped,
    at,
    ...ref,
    code: ErrorCodeSchema,
    message: z.string(),
  }),
  z.object({
    type: z.literal("round_finish"),
    ...scoped,
    at,
    round: ref.round,
    answer: z.string().nullable(),
  }),
  z.object({
    type: z.literal("run_finish"),
    at,
    status: z.enum(["done", "failed", "cancelled", "planned"]),
    reason: EndReasonSchema,
    answer: z.string().nullable(),
    message: z.string().optional(),
  }),
]);
export type RunEvent = z.infer<typeof RunEventSchema>;
export type RunEventType = RunEvent["type"];
export type EventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;
