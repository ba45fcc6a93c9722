import type { ChatBackend } from "../llm/types.ts";
import type { Seed } from "../run/continue.ts";
import type { Focus } from "../run/focus.ts";
import type { RoundRecord, RunKind, RunRecord } from "../schema/record.ts";
import type { ConductorConfig, Pool, Worker } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import type { Finish } from "./ending.ts";
import type { WorkflowOutcome } from "./execute.ts";
import type { FallbackPolicy } from "./fallback.ts";
import type { PriorStep } from "./messages.ts";
import type { RetryPolicy } from "./retry.ts";

export interface PromptSettings {
  template?: string;
  systemPrompt?: string;
  opening?: string;
  /** Named worker lines with notes (a prompted general model) or anonymous `Model id i` (trained). */
  namedWorkers?: boolean;
}

/** Why a fallback worker answered a round, and which one (as the round's record keeps it). */
export type RoundFallback = NonNullable<RoundRecord["fallback"]>;

/** Where a run starts. */
export type RunStart =
  /** Ask the Conductor for the top-level round `round` (0 unless resuming); `planOnly` stops there. */
  | { from: "plan"; round?: number; planOnly?: boolean }
  /**
   * Run the top-level round `round` with these steps (`raw`: what the Conductor wrote for them;
   * `fallback`: the round is a fallback worker's, resumed, so no refinement follows it).
   */
  | {
      from: "round";
      round: number;
      steps: Step[];
      keep?: ReadonlyMap<number, string>;
      raw?: string;
      previousRound?: PriorStep[];
      fallback?: RoundFallback;
    }
  /** Re-run a nested workflow of `base` in place with these steps. */
  | { from: "nested"; focus: Focus; steps: Step[]; keep?: ReadonlyMap<number, string> }
  /** A run that cannot start (a strategy names a worker the pool lacks): it ends `setup_error`. */
  | { from: "refused"; message: string };

export interface RunnerOptions {
  question: string;
  pool: Pool;
  backendFor: (worker: Worker) => ChatBackend;
  signal: AbortSignal;
  start: RunStart;
  conductor?: ConductorConfig;
  /** Plans, refinement rounds and self-selected steps need it. */
  conductorBackend?: ChatBackend;
  maxSteps?: number;
  /** Extra refinement rounds after the first (docs/protocol.md §1.6); 0 runs a single round. */
  maxRounds?: number;
  /** Whether refinement rounds follow the round that runs (default: when a Conductor is given). */
  refine?: boolean;
  /** Cap on model calls in the whole run, Conductor calls included. */
  maxCalls?: number;
  /** Levels of self-selection; 0 runs a step given to the Conductor as a plain call. */
  maxDepth?: number;
  /** Whether steps given to the Conductor plan and run nested workflows (default: true). */
  selfSelect?: boolean;
  prompt?: PromptSettings;
  retry?: Partial<RetryPolicy>;
  now?: () => number;
  /** Who the run is: its id, kind and the run it continues. */
  run?: { id?: string; kind?: RunKind; parentId?: string | null };
  /** The record this run continues: the source of earlier rounds and of a nested workflow. */
  base?: RunRecord;
  /** What the new run carries over from `base` (see `seedFrom`). */
  seed?: Seed;
  /**
   * The events continue the caller's record as the same run (a planned run that now runs): no
   * run_start is emitted.
   */
  append?: boolean;
  /** Asking the Conductor again, then a worker alone, when round 0 cannot be planned. */
  fallback?: FallbackPolicy;
}

/** How a run ended: its finish event, and the outcome of the last workflow that ran. */
export interface RunEnd {
  finish: Finish;
  lastRound: WorkflowOutcome | null;
}
