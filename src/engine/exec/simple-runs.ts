// The plain way into the one runner (runner.ts): `runConductor` plans with the Conductor and runs
// its plan, as the CLI's run and serve (cli/kit/engine.ts) and reward do. Runs of given steps (re-runs, resumes, fixed
// strategies) build their own `RunStart` for `runRun` (run/rerun.ts, eval/item-run.ts).
import type { ChatBackend } from "../llm/types.ts";
import type { RunEvent } from "../schema/events.ts";
import type { ConductorConfig, Pool, Worker } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import type { FallbackPolicy } from "./fallback.ts";
import type { RetryPolicy } from "./retry.ts";
import type { PromptSettings } from "./runner.ts";
import { runRun } from "./runner.ts";

export type { PromptSettings } from "./runner.ts";
export { newRunId } from "./runner.ts";

export interface RunOptions {
  question: string;
  pool: Pool;
  conductor: ConductorConfig;
  conductorBackend: ChatBackend;
  backendFor: (worker: Worker) => ChatBackend;
  signal: AbortSignal;
  maxSteps?: number;
  /** Extra refinement rounds after the first (docs/protocol.md §1.6); 0 runs a single round. */
  maxRounds?: number;
  /** Cap on model calls in the whole run, Conductor calls included. */
  maxCalls?: number;
  /**
   * Levels of self-selection (docs/protocol.md §1.6): a step given to the Conductor plans and runs
   * a nested workflow.
   */
  maxDepth?: number;
  prompt?: PromptSettings;
  retry?: Partial<RetryPolicy>;
  runId?: string;
  now?: () => number;
  /** Asking the Conductor again, then a named worker alone, when it cannot plan (FallbackPolicy). */
  fallback?: FallbackPolicy;
  /**
   * Round 0 as already planned (and perhaps edited by the user): it runs without asking the
   * Conductor again, and no run_start is emitted since the caller's record holds the start and
   * the plan. Refinement rounds then follow as usual.
   */
  firstRound?: { raw: string; steps: Step[] };
}

/**
 * The whole Conductor run: plan with the Conductor, execute the workflow, then up to `maxRounds`
 * refinement rounds in which the Conductor accepts the answer (three empty lists) or writes a new
 * workflow that sees the previous round. Yields every event; never throws on model failures.
 * A thin entry to the one runner (`runRun`).
 */
export async function* runConductor(o: RunOptions): AsyncGenerator<RunEvent, void> {
  yield* runRun({
    ...o,
    run: { id: o.runId, kind: "planned" },
    refine: true,
    append: !!o.firstRound,
    start: o.firstRound
      ? { from: "round", round: 0, steps: o.firstRound.steps, raw: o.firstRound.raw }
      : { from: "plan" },
  });
}
