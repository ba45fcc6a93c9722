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
  /** Was running when the page went away (a reload); its partial output is kept. */
  "interrupted",
]);
export type StepStatus = z.infer<typeof StepStatusSchema>;

export const FailureSchema = z.object({ code: z.string(), message: z.string() });

/** Why an attempt failed: the error's code, the HTTP status where there was one, and its message. */
const attemptFailure = {
  code: z.string(),
  status: z.number().int().nullable(),
  message: z.string(),
};

/** A retry in progress: attempt `attempt` of `of` starts at `at + delayMs`, after `code`/`status`. */
export const RetryStateSchema = z.object({
  attempt: z.number().int().positive(),
  of: z.number().int().positive().nullable(),
  at: z.number(),
  delayMs: z.number().nonnegative(),
  ...attemptFailure,
});
export type RetryState = z.infer<typeof RetryStateSchema>;

/**
 * An attempt that failed and was retried: when it started and failed, and why. Kept so a trace can
 * show retries as sibling attempts (absent in older records and where nothing was retried).
 */
export const FailedAttemptSchema = z.object({
  attempt: z.number().int().positive(),
  startedAt: z.number().nullable(),
  finishedAt: z.number(),
  ...attemptFailure,
});
export type FailedAttempt = z.infer<typeof FailedAttemptSchema>;

export const StepRecordSchema = z.object({
  index: z.number().int().nonnegative(),
  /**
   * The id of the step's worker in the run's pool (export v4; v3 held its place in the pool); ""
   * in an exported workflow whose step had no worker chosen yet.
   */
  worker: z.string(),
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
  /** The attempts that failed and were retried, in order. */
  tries: z.array(FailedAttemptSchema).optional(),
  /** When the latest attempt started, where it was not the first (`startedAt` is the first's). */
  attemptStartedAt: z.number().optional(),
  startedAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
  attempts: z.number().int().nonnegative(),
  usage: UsageSchema.nullable(),
  cost: z.number().nonnegative().nullable(),
  error: FailureSchema.nullable(),
  /** A self-selected step's nested workflow (docs/protocol.md §1.6); null for an ordinary step. */
  get nested() {
    return NestedRecordSchema.nullable();
  },
});
export type StepRecord = z.infer<typeof StepRecordSchema>;

export const PlanRecordSchema = z.object({
  /** The messages as sent (see the plan_start event's `opening` for what a grammar left out). */
  messages: z.array(ChatMessageSchema),
  /** See the plan_start event's `opening`. */
  opening: z.string().optional(),
  raw: z.string(),
  /** The Conductor's reasoning, kept apart from `raw` (absent in older records). */
  reasoning: z.string().optional(),
  /** Set while the plan waits to retry; cleared when the next attempt starts. */
  retry: RetryStateSchema.nullable().optional(),
  /** The attempts that failed and were retried, in order (`startedAt` is the latest attempt's). */
  tries: z.array(FailedAttemptSchema).optional(),
  startedAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
  usage: UsageSchema.nullable(),
  cost: z.number().nonnegative().nullable(),
  error: FailureSchema.nullable(),
  /** See the plan_finish event's `notice`. */
  notice: z.string().optional(),
  /**
   * Earlier outputs of this plan that did not parse, each followed by asking the Conductor again;
   * their calls count in the run's totals like any other.
   */
  rejected: z
    .array(
      z.object({
        raw: z.string(),
        error: FailureSchema,
        usage: UsageSchema.nullable(),
        cost: z.number().nonnegative().nullable(),
      }),
    )
    .optional(),
});
export type PlanRecord = z.infer<typeof PlanRecordSchema>;

/**
 * The three lists as the Conductor wrote them for one round, with the mapping its numbers meant:
 * `model_id` n stood for the worker whose id is `workerIds[n]` (the pool in the prompt's order).
 */
export const ListsSchema = z.object({
  model_id: z.array(z.number().int()),
  subtasks: z.array(z.string()),
  access_list: z.array(AccessSchema),
  workerIds: z.array(z.string()),
});

export const RoundRecordSchema = z.object({
  index: z.number().int().nonnegative(),
  plan: PlanRecordSchema.nullable(),
  lists: ListsSchema.nullable(),
  steps: z.array(StepRecordSchema),
  answer: z.string().nullable(),
  /** True when the Conductor accepted the previous round's answer (three empty lists). */
  accepted: z.boolean(),
  /**
   * Set when the Conductor could not plan and this round is one worker answering alone in its
   * place: which worker, and the plan's failure.
   */
  fallback: z.object({ worker: z.string(), reason: FailureSchema }).optional(),
  /** When the round's workflow started and finished executing (absent before export v3). */
  startedAt: z.number().nullable().optional(),
  finishedAt: z.number().nullable().optional(),
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
  /** The Conductor planned round 0 and nothing ran yet: Run continues this same run. */
  "planned",
  "running",
  "done",
  "failed",
  "cancelled",
  /** Was planning or running when the page went away; Resume continues it as a new run. */
  "interrupted",
]);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/**
 * How a run came to be: planned by the Conductor (then perhaps run), a workflow the user edited
 * or built, a re-run from a step, a retry of a failed step, a resumed interrupted run, an import,
 * or an item of an evaluation.
 */
export const RunKindSchema = z.enum([
  "planned",
  "edited",
  "manual",
  "rerun",
  "retry",
  "resumed",
  "imported",
  "evaluation",
]);
export type RunKind = z.infer<typeof RunKindSchema>;

/**
 * A plan (`step: null`) or a step a run kept from its parent rather than running it again; its
 * usage is the parent's and is left out of this run's totals.
 */
export const KeptRefSchema = z.object({
  parent: z.array(z.object({ round: z.number().int(), step: z.number().int() })),
  round: z.number().int().nonnegative(),
  step: z.number().int().nonnegative().nullable(),
});
export type KeptRef = z.infer<typeof KeptRefSchema>;

/** The Conductor prompt settings a run was planned with (null when it had no Conductor). */
export const PromptRecordSchema = z.object({
  template: z.string(),
  namedWorkers: z.boolean(),
});

export const TotalsSchema = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  cost: z.number().nonnegative(),
  estimated: z.boolean(),
  calls: z.number().int().nonnegative(),
  /** Of the completion tokens, those the providers reported as reasoning; absent when none did. */
  reasoningTokens: z.number().int().nonnegative().optional(),
  /** Of the calls, those answered from the response cache (at no cost); absent when none were. */
  cachedCalls: z.number().int().nonnegative().optional(),
  /** What the cached calls would have cost at their prices; absent when none saved anything. */
  savedCost: z.number().nonnegative().optional(),
  /** Of the calls, those whose price was unknown (`cost` then is a lower bound); absent when none. */
  unpricedCalls: z.number().int().nonnegative().optional(),
});
export type Totals = z.infer<typeof TotalsSchema>;

/**
 * Where the user placed the first round's steps by hand, by step index ("0", "1", ...): layout,
 * kept apart from what the steps do. A step without an entry is placed by the automatic layout.
 */
export const LayoutSchema = z.object({
  positions: z.record(z.string().regex(/^\d+$/), z.object({ x: z.number(), y: z.number() })),
});
export type Layout = z.infer<typeof LayoutSchema>;

export const RunRecordSchema = z.object({
  id: z.string(),
  kind: RunKindSchema,
  /** The run this one continues (re-run, retry, resume, edit of a later round); null otherwise. */
  parentId: z.string().nullable(),
  /** What it kept from its parent. */
  kept: z.array(KeptRefSchema),
  createdAt: z.number().nullable(),
  /** Time the Conductor spent planning (top-level rounds) and the workflows spent running. */
  planningMs: z.number().nonnegative().nullable(),
  executionMs: z.number().nonnegative().nullable(),
  prompt: PromptRecordSchema.nullable(),
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
  /** This run's own calls, derived from its record (kept steps excluded): see `totalsOf`. */
  totals: TotalsSchema,
  /** Dragged positions, written by an export and restored by an import; absent in older files. */
  layout: LayoutSchema.optional(),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;
