import { estimateTokens } from "../llm/estimate.ts";
import type { ChatBackend } from "../llm/types.ts";
import type { RetryPolicy } from "../exec/retry.ts";
import type { PromptSettings } from "../exec/run.ts";
import { newRunId } from "../exec/run.ts";
import { applyEvent, emptyRecord } from "../run/record.ts";
import type { RunEvent } from "../schema/events.ts";
import type { RunRecord } from "../schema/record.ts";
import type { Worker } from "../schema/worker.ts";
import type { EvalItem } from "./dataset/schema.ts";
import { priorCost } from "./estimate.ts";
import { OriginLimiter, originOf } from "./limiter.ts";
import type { PosedItem } from "./pose.ts";
import { poseItem } from "./pose.ts";
import type { EvalResult, Evaluation } from "./schema.ts";
import { CodeResultSchema, resultKey } from "./schema.ts";
import type { Scorer } from "./scorers/types.ts";
import type { Strategy } from "./strategy.ts";
import { strategyName } from "./strategy.ts";
import { itemRunEvents } from "./item-run.ts";

export interface EvalProgress {
  done: number;
  total: number;
  running: number;
  /** Dollars spent, earlier sessions of this evaluation included. */
  cost: number;
  /** Estimated milliseconds left, from this session's pace; null before the first result. */
  etaMs: number | null;
  paused: boolean;
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

export interface EvalRunOptions {
  evaluation: Evaluation;
  items: readonly EvalItem[];
  scorer: Scorer;
  /** Raw backends; the runner gates them per endpoint origin. */
  backendFor: (worker: Worker) => ChatBackend;
  conductorBackend?: ChatBackend;
  limiter?: OriginLimiter;
  /** Results already stored: their keys are skipped, their cost counts against the cap. */
  previous?: readonly EvalResult[];
  /** Called, and awaited, for each finished (item, strategy, repeat) before it counts as done. */
  onResult: (result: EvalResult, record: RunRecord) => Promise<void> | void;
  onProgress?: (p: EvalProgress) => void;
  retry?: Partial<RetryPolicy>;
  maxCallsPerRun?: number;
  prompt?: PromptSettings;
  /** Runs in flight at once; calls are limited per origin beneath it. Default: 4 x concurrency. */
  taskConcurrency?: number;
  now?: () => number;
}

interface Task {
  item: EvalItem;
  strategy: Strategy;
  name: string;
  repeat: number;
}

/**
 * Runs an evaluation: every (item, strategy, repeat) not already done, each through the engine's one
 * runner into a RunRecord, then scored. Pause stops starting new runs; cancel aborts those in flight
 * (they are not recorded, so a later session runs them again). The spending cap refuses any run whose
 * estimate would pass it and aborts what is running once the spend reaches it.
 */
export class EvalRun {
  private pausedFlag = false;
  private wake: (() => void) | null = null;
  private readonly controller = new AbortController();
  private readonly limiter: OriginLimiter;
  private spent = 0;
  private reserved = 0;
  private running = 0;
  private done = 0;
  private doneThisSession = 0;
  private readonly costs = new Map<string, { sum: number; n: number }>();
  private stopReason: EvalStatus | null = null;
  /** The task whose estimate the cap refused, with that estimate and what was committed then. */
  private capBlock: CapBlock | null = null;
  private startedAt = 0;
  private totalCount = 0;

  constructor(private readonly o: EvalRunOptions) {
    this.limiter = o.limiter ?? new OriginLimiter(o.evaluation.concurrency);
  }

  /** Every (item, strategy, repeat) of the evaluation, finished ones included. */
  get total(): number {
    return this.totalCount;
  }

  get paused(): boolean {
    return this.pausedFlag;
  }

  pause(): void {
    this.pausedFlag = true;
    this.emit();
  }

  resume(): void {
    this.pausedFlag = false;
    this.wake?.();
    this.emit();
  }

  cancel(): void {
    this.stopReason ??= "cancelled";
    this.controller.abort();
    this.wake?.();
  }

  private readonly backends = new Map<string, ChatBackend>();

  /** One gated backend per worker for the whole evaluation (clients are not free to create). */
  private backendOf(w: Worker): ChatBackend {
    let b = this.backends.get(w.id);
    if (!b) {
      b = this.limiter.wrap(this.o.backendFor(w), originOf(w));
      this.backends.set(w.id, b);
    }
    return b;
  }

  /** Gated backends for extra callers such as an LLM judge. */
  gated(worker: Worker, backend: ChatBackend): ChatBackend {
    return this.limiter.wrap(backend, originOf(worker));
  }

  private emit() {
    const now = (this.o.now ?? Date.now)();
    const left = this.totalCount - this.done;
    const etaMs =
      this.doneThisSession > 0 ? ((now - this.startedAt) / this.doneThisSession) * left : null;
    this.o.onProgress?.({
      done: this.done,
      total: this.totalCount,
      running: this.running,
      cost: this.spent,
      etaMs,
      paused: this.pausedFlag,
    });
  }

  private estimate(task: Task): number {
    const seen = this.costs.get(task.name);
    if (seen && seen.n > 0) return seen.sum / seen.n;
    const e = this.o.evaluation;
    return priorCost(task.strategy, e.pool, e.conductor, estimateTokens(task.item.question));
  }

  private tasks(): Task[] {
    const e = this.o.evaluation;
    const skip = new Set((this.o.previous ?? []).map(resultKey));
    const all: Task[] = [];
    for (const item of this.o.items)
      for (const strategy of e.strategies)
        for (let repeat = 0; repeat < e.repeats; repeat++) {
          const name = strategyName(strategy);
          if (!skip.has(resultKey({ item: item.id, strategy: name, repeat })))
            all.push({ item, strategy, name, repeat });
        }
    return all;
  }

  /** Runs until every task is done, the cap is reached or the run is cancelled. */
  async run(): Promise<{
    status: EvalStatus;
    done: number;
    total: number;
    cost: number;
    capBlock: CapBlock | null;
  }> {
    const previous = this.o.previous ?? [];
    for (const r of previous) {
      this.spent += r.cost;
      const c = this.costs.get(r.strategy) ?? { sum: 0, n: 0 };
      this.costs.set(r.strategy, { sum: c.sum + r.cost, n: c.n + 1 });
    }
    const queue = this.tasks();
    this.done = previous.length;
    this.totalCount = previous.length + queue.length;
    this.startedAt = (this.o.now ?? Date.now)();
    this.emit();
    const width = Math.max(1, this.o.taskConcurrency ?? this.o.evaluation.concurrency * 4);
    const inFlight = new Set<Promise<void>>();
    const cap = this.o.evaluation.maxCost;
    for (const task of queue) {
      while (!this.stopReason && (this.pausedFlag || inFlight.size >= width)) {
        const woken = new Promise<void>((resolve) => (this.wake = resolve));
        await (this.pausedFlag ? woken : Promise.race([woken, ...inFlight]));
        this.wake = null;
      }
      if (this.stopReason) break;
      const estimate = this.estimate(task);
      if (cap !== null && this.spent + this.reserved + estimate > cap) {
        // Nothing starts that the estimate says would pass the cap; what runs may still finish.
        this.stopReason = "cost_cap";
        this.capBlock = {
          item: task.item.id,
          strategy: task.name,
          estimate,
          committed: this.spent + this.reserved,
          cap,
        };
        break;
      }
      this.reserved += estimate;
      const p = this.runTask(task).finally(() => {
        this.reserved -= estimate;
        inFlight.delete(p);
      });
      inFlight.add(p);
    }
    await Promise.all(inFlight);
    this.emit();
    return {
      status: this.stopReason ?? "finished",
      done: this.done,
      total: this.totalCount,
      cost: this.spent,
      capBlock: this.capBlock,
    };
  }

  private async runTask(task: Task): Promise<void> {
    const e = this.o.evaluation;
    const posed = poseItem(task.item, e.seed, e.scorer.id);
    const now = this.o.now ?? Date.now;
    const runId = newRunId(now());
    this.running++;
    this.emit();
    let record = emptyRecord(runId);
    try {
      for await (const event of this.events(task, posed, runId)) record = applyEvent(record, event);
    } finally {
      this.running--;
    }
    if (record.status === "cancelled" || this.controller.signal.aborted) return this.emit();
    const answer = record.answer;
    const scored =
      answer === null
        ? {
            correct: false,
            score: 0,
            extracted: null,
            reason: record.message ?? "The run gave no answer.",
          }
        : await this.o.scorer.score(
            answer,
            { question: posed.question, expected: posed.expected, tests: task.item.tests },
            this.controller.signal,
          );
    if (this.controller.signal.aborted) return this.emit();
    const t = record.totals;
    const strict = scored.details?.strict;
    const code = e.scorer.id === "code" ? CodeResultSchema.safeParse(scored.details) : null;
    const result: EvalResult = {
      item: task.item.id,
      strategy: task.name,
      repeat: task.repeat,
      correct: scored.correct,
      score: scored.score,
      answer,
      expected: posed.expected ?? null,
      tokens: t.promptTokens + t.completionTokens,
      cost: t.cost,
      latencyMs: Math.max(0, (record.finishedAt ?? now()) - (record.startedAt ?? now())),
      runId,
      calls: t.calls,
      extracted: scored.extracted,
      status: record.status,
      endReason: record.endReason,
      planFailed: record.endReason === "plan_error",
      ...(scored.reason ? { reason: scored.reason } : {}),
      ...(typeof strict === "boolean" ? { strict } : {}),
      ...(code?.success ? { code: code.data } : {}),
      finishedAt: now(),
    };
    this.spent += t.cost;
    const c = this.costs.get(task.name) ?? { sum: 0, n: 0 };
    this.costs.set(task.name, { sum: c.sum + t.cost, n: c.n + 1 });
    await this.o.onResult(result, record);
    this.done++;
    this.doneThisSession++;
    if (e.maxCost !== null && this.spent >= e.maxCost && !this.stopReason) {
      this.stopReason = "cost_cap";
      this.controller.abort();
    }
    this.emit();
  }

  private events(task: Task, posed: PosedItem, runId: string): AsyncGenerator<RunEvent, unknown> {
    const conductor = this.o.evaluation.conductor;
    const raw = this.o.conductorBackend;
    return itemRunEvents({
      evaluation: this.o.evaluation,
      strategy: task.strategy,
      question: posed.question,
      runId,
      backendFor: (w) => this.backendOf(w),
      conductorBackend:
        raw && conductor
          ? this.limiter.wrap(raw, originOf({ kind: conductor.kind, baseURL: conductor.baseURL }))
          : undefined,
      // A signal per run: each run's calls listen to their own, not all to one shared signal.
      signal: AbortSignal.any([this.controller.signal]),
      retry: this.o.retry,
      maxCalls: this.o.maxCallsPerRun,
      prompt: this.o.prompt,
      now: this.o.now ?? Date.now,
    });
  }
}
