import { findWorker, shownIds } from "../conductor/shown-ids.ts";
import { buildWorkerMessages, prefillModeOf } from "../exec/messages.ts";
import { estimatePromptTokens } from "../llm/token-estimate.ts";
import type { ChatMessage } from "../schema/usage.ts";
import type { Price, Worker } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";

/**
 * A "typical" step answer, in tokens. The paper reports about 1,820 tokens per question for its
 * learned workflows, which average about 3 steps (docs/protocol.md, introduction): roughly 600 a
 * step. It is a planning figure, not a bound; reasoning models often write far more, up to their
 * max tokens.
 */
export const TYPICAL_OUTPUT_TOKENS = 600;

/** Two figures for one quantity: the upper bound and the typical case. */
export interface Span {
  max: number;
  typical: number;
}

export interface StepEstimate {
  index: number;
  /** The step's worker id. */
  worker: string;
  workerName: string;
  promptTokens: Span;
  outputTokens: Span;
  /** Dollars; null when the worker has no price (or is not in the pool). */
  cost: Span | null;
  /** Why the cost is null, or "free" for an in-browser worker. */
  pricing: "priced" | "free" | "no_price" | "no_worker";
}

export interface RunEstimate {
  steps: StepEstimate[];
  promptTokens: Span;
  outputTokens: Span;
  /** Dollars over the steps whose cost is known. */
  cost: Span;
  /** Steps whose cost could not be estimated (no price, or no such worker). */
  unpricedSteps: number;
}

/** Prompt tokens of a message list, counted as the rough estimate counts them. */
export function promptTokensOf(messages: readonly ChatMessage[]): number {
  return estimatePromptTokens(messages);
}

/** Dollars for a number of prompt and output tokens at per-million prices. */
export function tokensCost(promptTokens: number, outputTokens: number, price: Price): number {
  return (promptTokens * price.input + outputTokens * price.output) / 1_000_000;
}

/**
 * How a step whose worker is not in the pool names it: by its last known name, else its id. A
 * shipped example's steps name the worker it was recorded with, not as a fault of the user's pool.
 */
export function notInPool(worker: string, name?: string, example = false): string {
  if (worker === "") return "No worker chosen";
  if (example && name) return `${name} (the example's worker)`;
  return `“${name ?? worker}” (not in pool)`;
}

/** Stand-in text that the rough estimate counts as exactly `tokens` tokens. */
function placeholder(tokens: number): string {
  return "x".repeat(Math.max(1, tokens) * 4);
}

function pricingOf(worker: Worker | undefined): StepEstimate["pricing"] {
  if (!worker) return "no_worker";
  if (worker.kind === "webllm") return "free";
  if (worker.kind === "conductor") return "no_price";
  return worker.price ? "priced" : "no_price";
}

/**
 * Estimates one round of a workflow before it runs. Each step's prompt is the actual worker message
 * (`buildWorkerMessages`), with every earlier step's output replaced by a stand-in as long as that
 * step's output in the same scenario: its max tokens for the upper bound, `TYPICAL_OUTPUT_TOKENS`
 * (capped by max tokens) for the typical case. Output tokens are max tokens (an upper bound that no
 * call can exceed) and the typical figure. Costs use the worker's price; a step without one is
 * counted in `unpricedSteps` and left out of the cost totals.
 */
export function estimateRun(input: {
  question: string;
  steps: readonly Step[];
  pool: readonly Worker[];
}): RunEstimate {
  const steps = [...input.steps];
  const workers = steps.map((s) => findWorker(input.pool, s.worker));
  const workerIds = shownIds(input.pool);
  const maxOut = workers.map((w) => w?.maxTokens ?? 4096);
  const typicalOut = maxOut.map((m) => Math.min(m, TYPICAL_OUTPUT_TOKENS));
  const promptFor = (index: number, outputs: number[]) =>
    promptTokensOf(
      buildWorkerMessages({
        question: input.question,
        steps,
        workerIds,
        index,
        outputs: outputs.map(placeholder),
        prefill: prefillModeOf(workers[index]),
      }),
    );

  const estimates = steps.map((step, index): StepEstimate => {
    const worker = workers[index];
    const promptTokens = { max: promptFor(index, maxOut), typical: promptFor(index, typicalOut) };
    const outputTokens = { max: maxOut[index] ?? 0, typical: typicalOut[index] ?? 0 };
    const pricing = pricingOf(worker);
    const price = pricing === "free" ? { input: 0, output: 0 } : worker?.price;
    const cost =
      (pricing === "priced" || pricing === "free") && price
        ? {
            max: tokensCost(promptTokens.max, outputTokens.max, price),
            typical: tokensCost(promptTokens.typical, outputTokens.typical, price),
          }
        : null;
    return {
      index,
      worker: step.worker,
      workerName: worker?.name ?? notInPool(step.worker),
      promptTokens,
      outputTokens,
      cost,
      pricing,
    };
  });

  const sum = (pick: (s: StepEstimate) => Span | null): Span =>
    estimates.reduce(
      (acc, s) => {
        const v = pick(s);
        return v ? { max: acc.max + v.max, typical: acc.typical + v.typical } : acc;
      },
      { max: 0, typical: 0 },
    );
  return {
    steps: estimates,
    promptTokens: sum((s) => s.promptTokens),
    outputTokens: sum((s) => s.outputTokens),
    cost: sum((s) => s.cost),
    unpricedSteps: estimates.filter((s) => s.cost === null).length,
  };
}
