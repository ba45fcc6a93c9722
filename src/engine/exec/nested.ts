import { shownIds } from "../conductor/shown-ids.ts";
import { buildConductorMessages } from "../conductor/prompt.ts";
import { failure } from "../errors.ts";
import type { ChatBackend } from "../llm/types.ts";
import type { ConductorConfig, Pool, Worker } from "../schema/worker.ts";
import type { CallBudget, NestedRunner } from "./execute.ts";
import { executeWorkflow } from "./execute.ts";
import { WORKER_PREAMBLE } from "./messages.ts";
import { planRound } from "./plan.ts";
import type { RetryPolicy } from "./retry.ts";
import type { PromptSettings } from "./runner-options.ts";

/** Everything a nested plan-and-execute needs from the run that starts it. */
export interface NestedContext {
  pool: Pool;
  conductor: ConductorConfig;
  conductorBackend: ChatBackend;
  backendFor: (worker: Worker) => ChatBackend;
  maxSteps: number;
  /** How many levels of self-selection may nest (docs/protocol.md §1.6: default 1). */
  maxDepth: number;
  prompt?: PromptSettings;
  retry?: Partial<RetryPolicy>;
  budget: CallBudget;
  now?: () => number;
}

/**
 * The question a nested Conductor plans for: what the step's worker would have read (the original
 * question, the earlier steps it may see, its subtask), without the worker preamble.
 */
export function nestedQuestion(workerMessage: string): string {
  return workerMessage.startsWith(WORKER_PREAMBLE)
    ? workerMessage.slice(WORKER_PREAMBLE.length).trimStart()
    : workerMessage;
}

/**
 * The runner for steps at nesting `depth` (1 = inside the top-level workflow) whose worker is the
 * Conductor itself, or undefined past the depth cap, where such a step is an ordinary call to the
 * Conductor's model. A nested level plans once (no refinement rounds) and shares the run's budget.
 */
export function nestedRunner(ctx: NestedContext, depth: number): NestedRunner | undefined {
  if (depth > ctx.maxDepth) return undefined;
  return async function* ({ messages, parent, signal }) {
    const user = messages.findLast((m) => m.role === "user")?.content ?? "";
    const plan = yield* planRound({
      backend: ctx.conductorBackend,
      conductor: ctx.conductor,
      messages: buildConductorMessages({
        question: nestedQuestion(user),
        pool: ctx.pool,
        maxSteps: ctx.maxSteps,
        namedWorkers: ctx.prompt?.namedWorkers ?? false,
        continuesAssistant: ctx.conductorBackend.continuesAssistant,
        template: ctx.prompt?.template,
        systemPrompt: ctx.prompt?.systemPrompt,
        opening: ctx.prompt?.opening,
      }),
      workerIds: shownIds(ctx.pool),
      maxSteps: ctx.maxSteps,
      round: 0,
      signal,
      retry: ctx.retry,
      budget: ctx.budget,
      now: ctx.now,
      parent,
    });
    if (!plan.ok)
      return {
        status: plan.cancelled ? "cancelled" : "failed",
        answer: null,
        code: plan.code,
        message: `The nested Conductor's plan failed: ${plan.message}`,
      };
    const now = ctx.now ?? Date.now;
    yield { type: "round_start", at: now(), round: 0, steps: plan.steps, parent };
    const outcome = yield* executeWorkflow({
      question: nestedQuestion(user),
      steps: plan.steps,
      pool: ctx.pool,
      backendFor: ctx.backendFor,
      signal,
      round: 0,
      retry: ctx.retry,
      budget: ctx.budget,
      now: ctx.now,
      parent,
      nested: nestedRunner(ctx, depth + 1),
      selfPrice: ctx.conductor.price,
    });
    yield { type: "round_finish", at: now(), round: 0, answer: outcome.answer, parent };
    if (outcome.status === "done") return { status: "done", answer: outcome.answer };
    if (outcome.status === "cancelled")
      return { status: "cancelled", answer: null, ...failure("aborted") };
    return outcome.budgetExhausted
      ? { status: "failed", answer: null, ...failure("budget") }
      : {
          status: "failed",
          answer: null,
          code: "upstream_failed",
          message: "A step of the nested workflow failed.",
        };
  };
}
