/**
 * The item step of an evaluation: one (item, strategy, repeat) posed, run through the engine's one
 * runner into a RunRecord (continuing from a partial when one was kept), then scored into a
 * result. It counts nothing: the scheduler (scheduler.ts) decides what runs when, and accounts for
 * the spend, the partials and the progress of what each step returns.
 */
import { withScope } from "../llm/cache.ts";
import type { CallScope, ChatBackend } from "../llm/types.ts";
import { applyEvent, emptyRecord } from "../run/record.ts";
import { totalsOf } from "../run/totals.ts";
import type { RunRecord } from "../schema/record.ts";
import type { Worker } from "../schema/worker.ts";
import { measuredResult } from "./item-result.ts";
import type { ItemRunContext } from "./item-run.ts";
import { continueItemRun, itemRunEvents } from "./item-run.ts";
import type { OriginLimiter } from "./limiter.ts";
import { originOf } from "./limiter.ts";
import type { EvalError } from "./outcome.ts";
import { runError } from "./outcome.ts";
import type { PosedItem } from "./pose.ts";
import { poseItem } from "./pose.ts";
import { addJudgeSpend, applyScore, noAnswer } from "./rescore.ts";
import type { EvalRunOptions, Task } from "./runner-types.ts";
import type { EvalResult } from "./schema.ts";

/** A run that ended, scored: the result to store and what the scheduler accounts for. */
export interface ScoredStep {
  result: EvalResult;
  /** The run's error (the result then has no verdict), or null. */
  error: EvalError | null;
  /** What scoring added to the item's cost (the judge's calls). */
  judgeCost: number;
}

/** A record's totals with the parts it kept from a partial counted too: the whole item's spend. */
export function wholeTotals(record: RunRecord) {
  return totalsOf({ rounds: record.rounds, kept: [] });
}

/** Poses, runs and scores one task of an evaluation. */
export class ItemStep {
  private readonly backends = new Map<string, ChatBackend>();

  constructor(
    private readonly o: EvalRunOptions,
    private readonly limiter: OriginLimiter,
  ) {}

  /** The task's item as its strategy receives it, with the reference its scorer compares with. */
  pose(task: Task): PosedItem {
    const e = this.o.evaluation;
    return poseItem(task.item, e.seed, e.scorer.id, e.instruction);
  }

  /**
   * Runs the task (from `partial` when given) until it ends or `signal` aborts it, and returns the
   * record its events made. `scope` makes its calls this task's own for the response cache.
   */
  async run(
    task: Task,
    posed: PosedItem,
    runId: string,
    signal: AbortSignal,
    partial: RunRecord | undefined,
    scope: CallScope,
  ): Promise<RunRecord> {
    const context = this.context(task, posed, runId, signal, scope);
    const events = partial ? continueItemRun(context, partial) : itemRunEvents(context);
    let record = emptyRecord(runId);
    for await (const event of events) record = applyEvent(record, event);
    return record;
  }

  /**
   * Scores a run that ended (an errored one gets no verdict, only its error's message); null when
   * `stop` aborted while it was scored. The judge's calls on it are metered to it.
   */
  async score(
    task: Task,
    posed: PosedItem,
    record: RunRecord,
    stop: AbortSignal,
    scope: CallScope,
    now: () => number,
  ): Promise<ScoredStep | null> {
    const answer = record.answer;
    const error = runError(record);
    // A signal of this item's own, so the judge's calls on it are metered to it.
    const scoring = AbortSignal.any([stop]);
    this.o.judgeMeter?.scopeTo(scoring, scope);
    const scored = error
      ? null
      : answer === null
        ? noAnswer(record.message)
        : await this.o.scorer.score(
            answer,
            { question: posed.question, expected: posed.expected, tests: task.item.tests },
            scoring,
          );
    const judge = this.o.judgeMeter?.take(scoring);
    if (stop.aborted) return null;
    // The whole item, the parts a continued run kept from its partial included.
    const measured = measuredResult(task, posed, record, wholeTotals(record), error, now());
    const result = scored
      ? addJudgeSpend(applyScore(measured, scored, this.o.scorer), judge)
      : { ...measured, reason: error!.message };
    return { result, error, judgeCost: result.cost - measured.cost };
  }

  /** One gated backend per worker for the whole evaluation (clients are not free to create). */
  private backendOf(w: Worker): ChatBackend {
    let b = this.backends.get(w.id);
    if (!b) {
      b = this.limiter.wrap(this.o.backendFor(w), originOf(w));
      this.backends.set(w.id, b);
    }
    return b;
  }

  /** What the engine's runner needs for this task: its backends gated by origin and scoped to it. */
  private context(
    task: Task,
    posed: PosedItem,
    runId: string,
    signal: AbortSignal,
    scope: CallScope,
  ): ItemRunContext {
    const conductor = this.o.evaluation.conductor;
    const raw = this.o.conductorBackend;
    const planner =
      raw && conductor
        ? this.limiter.wrap(raw, originOf({ kind: conductor.kind, baseURL: conductor.baseURL }))
        : undefined;
    return {
      evaluation: this.o.evaluation,
      strategy: task.strategy,
      question: posed.question,
      runId,
      backendFor: (w) => withScope(this.backendOf(w), scope),
      conductorBackend: planner && withScope(planner, scope),
      signal,
      retry: this.o.retry,
      maxCalls: this.o.maxCallsPerRun,
      prompt: this.o.prompt,
      fallback: this.o.fallback,
      now: this.o.now ?? Date.now,
    };
  }
}
