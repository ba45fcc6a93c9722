import { OriginLimiter, originOf } from "./limiter.ts";
import type { ChatBackend } from "../llm/types.ts";
import type { Worker } from "../schema/worker.ts";
import { ItemStep } from "./item-step.ts";
import type { EvalRunOptions } from "./runner-types.ts";
import { EvalScheduler } from "./scheduler.ts";

export type {
  CapBlock,
  EvalOutcome,
  EvalProgress,
  EvalRunOptions,
  EvalStatus,
  SkippedStrategy,
} from "./runner-types.ts";

/**
 * Runs an evaluation: every (item, strategy, repeat) not already done, each through the engine's one
 * runner into a RunRecord, then scored. Pause and cancel abort the runs in flight at once; each
 * cut-short run is kept as a partial (onPartial) and not counted as done, and when it runs again
 * (after resume, or in a later session) it continues from that partial, so no call is paid for
 * twice. The spending cap skips any run whose
 * estimate (learned from the calls made so far, cost-model.ts) would pass it, waiting first for
 * runs in flight to settle what is spent, and lets cheaper strategies go on; it aborts what is
 * running once the spend reaches it.
 *
 * The scheduler (scheduler.ts) decides what runs when; the item step (item-step.ts) poses, runs
 * and scores each task. Both share one per-origin limiter, the session's when it passes one.
 */
export class EvalRun extends EvalScheduler {
  private readonly limiter: OriginLimiter;

  constructor(o: EvalRunOptions) {
    const limiter = o.limiter ?? new OriginLimiter(o.evaluation.concurrency);
    super(o, new ItemStep(o, limiter));
    this.limiter = limiter;
  }

  /** Gated backends for extra callers such as an LLM judge. */
  gated(worker: Worker, backend: ChatBackend): ChatBackend {
    return this.limiter.wrap(backend, originOf(worker));
  }
}
