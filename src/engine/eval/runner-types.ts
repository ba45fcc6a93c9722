import type { FallbackPolicy } from "../exec/fallback.ts";
import type { RetryPolicy } from "../exec/retry.ts";
import type { PromptSettings } from "../exec/simple-runs.ts";
import type { ChatBackend } from "../llm/types.ts";
import type { RunRecord } from "../schema/record.ts";
import type { Worker } from "../schema/worker.ts";
import type { EstimateBasis } from "./cost-model.ts";
import type { EvalItem } from "./dataset/item-schema.ts";
import type { JudgeMeter } from "./judge-meter.ts";
import type { OriginLimiter } from "./limiter.ts";
import type { EvalResult, Evaluation } from "./schema.ts";
import type { Scorer } from "./scorers/types.ts";
import type { Shard } from "./shard.ts";
import type { Strategy } from "./strategy.ts";

// What an evaluation run takes, reports as it goes and returns (the runner is in runner.ts).

export interface EvalProgress {
  /** Items with a result that counts (scored or unscored); errored ones are counted apart. */
  done: number;
  /** Items whose calls failed: not done, run again on resume. */
  errors: number;
  total: number;
  running: number;
  /** Dollars spent, earlier sessions of this evaluation included. */
  cost: number;
  /** Estimated milliseconds left, from this session's pace; null before the first result. */
  etaMs: number | null;
  paused: boolean;
  /** What the spending cap kept from starting so far, per strategy. */
  skipped: SkippedStrategy[];
}

/** Items of one strategy that did not start because their estimate would pass the spending cap. */
export interface SkippedStrategy {
  strategy: string;
  items: number;
  /** The estimate per item when the last one was skipped, and what it was based on. */
  estimate: number;
  basis: EstimateBasis;
  /** What was left under the cap then. */
  left: number;
}

export type EvalStatus = "finished" | "cancelled" | "cost_cap";

/** Why the spending cap stopped an evaluation before a task: its estimate would have passed it. */
export interface CapBlock {
  item: string;
  strategy: string;
  /** The task's estimated cost, and the cost spent and reserved by running tasks at that moment. */
  estimate: number;
  committed: number;
  cap: number;
}

/** How a session ended: `errors` counts the items whose calls failed, earlier sessions' included. */
export interface EvalOutcome {
  status: EvalStatus;
  done: number;
  total: number;
  cost: number;
  errors: number;
  /** What the spending cap kept from starting, per strategy. */
  skipped: SkippedStrategy[];
  /** The first task the cap refused (its estimate would have passed it); null when none. */
  capBlock: CapBlock | null;
}

export interface EvalRunOptions {
  evaluation: Evaluation;
  items: readonly EvalItem[];
  scorer: Scorer;
  /** Raw backends; the runner gates them per endpoint origin. */
  backendFor: (worker: Worker) => ChatBackend;
  conductorBackend?: ChatBackend;
  limiter?: OriginLimiter;
  /**
   * Results already stored: their cost counts against the cap and their keys are skipped, except
   * errored ones (a call failed), which run again. A key stored twice counts by its last result.
   */
  previous?: readonly EvalResult[];
  /**
   * Runs that a pause, a cancel or the cap cut short, by result key: each continues from its
   * record (finished plan and steps kept, their calls not made again) instead of starting over.
   */
  partials?: ReadonlyMap<string, RunRecord>;
  /**
   * Called, and awaited, when a run is cut short (its record, to keep for a later session) and
   * with null once that key has a result (the partial is spent into it).
   */
  onPartial?: (key: string, record: RunRecord | null) => Promise<void> | void;
  /** Called, and awaited, for each finished (item, strategy, repeat) before it counts as done. */
  onResult: (result: EvalResult, record: RunRecord) => Promise<void> | void;
  onProgress?: (p: EvalProgress) => void;
  retry?: Partial<RetryPolicy>;
  maxCallsPerRun?: number;
  prompt?: PromptSettings;
  /** The Conductor strategy's answer when its plan fails (ask again, a worker alone). */
  fallback?: FallbackPolicy;
  /** The LLM judge's meter: its calls on an item count in the item's cost and the cap. */
  judgeMeter?: JudgeMeter;
  /**
   * Only this shard's cells run and count (eval --shard); `previous` should hold only its cells.
   * Every cell when absent.
   */
  shard?: Shard;
  /** Runs in flight at once; calls are limited per origin beneath it. Default: 4 x concurrency. */
  taskConcurrency?: number;
  now?: () => number;
}

/** One (item, strategy, repeat) to run. */
export interface Task {
  item: EvalItem;
  strategy: Strategy;
  name: string;
  repeat: number;
}
