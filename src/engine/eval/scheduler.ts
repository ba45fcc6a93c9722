/**
 * The scheduler of an evaluation: which (item, strategy, repeat) runs when. It queues the tasks not
 * yet done, holds them while paused, stops on cancel, keeps runs within the spending cap and the
 * task width, and reports progress; each task itself is posed, run and scored by the item step
 * (item-step.ts). runner.ts wires the two into `EvalRun`.
 */
import { estimateTokens } from "../llm/token-estimate.ts";
import type { CallScope } from "../llm/types.ts";
import { newRunId } from "../exec/simple-runs.ts";
import type { RunRecord } from "../schema/record.ts";
import type { EstimateBasis } from "./cost-model.ts";
import { CostModel } from "./cost-model.ts";
import type { ItemStep } from "./item-step.ts";
import { wholeTotals } from "./item-step.ts";
import type {
  CapBlock,
  EvalOutcome,
  EvalRunOptions,
  EvalStatus,
  SkippedStrategy,
  Task,
} from "./runner-types.ts";
import { latestResults, resultKey } from "./schema.ts";
import { inShard } from "./shard.ts";
import { strategyName } from "./strategy.ts";

/** Runs every task of an evaluation through an item step, within its width, pause and cap. */
export class EvalScheduler {
  private pausedFlag = false;
  private wake: (() => void) | null = null;
  private readonly controller = new AbortController();
  private spent = 0;
  private reserved = 0;
  private running = 0;
  private done = 0;
  private doneThisSession = 0;
  private readonly model: CostModel;
  private readonly skipped = new Map<string, SkippedStrategy>();
  /** The signals of the runs in flight. */
  private readonly runs = new Set<AbortController>();
  /** Runs in flight per strategy. */
  private readonly flying = new Map<string, number>();
  private stopReason: EvalStatus | null = null;
  /** The task whose estimate the cap refused, with that estimate and what was committed then. */
  private capBlock: CapBlock | null = null;
  private startedAt = 0;
  private totalCount = 0;
  /** Runs cut short, by result key, to continue from; and their tasks, to run again after a resume. */
  private readonly partials = new Map<string, RunRecord>();
  private readonly again: Task[] = [];
  /** Keys whose latest result is an error (a session's retry that succeeds removes its key). */
  private readonly errored = new Set<string>();

  constructor(
    private readonly o: EvalRunOptions,
    private readonly step: ItemStep,
  ) {
    this.model = new CostModel(o.evaluation);
    // One listener stops every run in flight. Not AbortSignal.any per run, whose source keeps a
    // reference per dependant (90,000 in a large evaluation), nor a listener per run (dozens).
    this.controller.signal.addEventListener("abort", () => {
      for (const run of this.runs) run.abort();
    });
  }

  /** Every (item, strategy, repeat) of the evaluation, finished ones included. */
  get total(): number {
    return this.totalCount;
  }

  get paused(): boolean {
    return this.pausedFlag;
  }

  /** Stops starting runs and aborts those in flight: each is kept as a partial and runs again on resume. */
  pause(): void {
    this.pausedFlag = true;
    for (const run of this.runs) run.abort();
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

  private emit() {
    const now = (this.o.now ?? Date.now)();
    const left = this.totalCount - this.done - this.errored.size;
    const etaMs =
      this.doneThisSession > 0 ? ((now - this.startedAt) / this.doneThisSession) * left : null;
    this.o.onProgress?.({
      done: this.done,
      errors: this.errored.size,
      total: this.totalCount,
      running: this.running,
      cost: this.spent,
      etaMs,
      paused: this.pausedFlag,
      skipped: [...this.skipped.values()],
    });
  }

  private estimate(task: Task) {
    return this.model.estimate(task.strategy, task.name, estimateTokens(task.item.question));
  }

  private skip(task: Task, estimate: { cost: number; basis: EstimateBasis }, left: number) {
    const s = this.skipped.get(task.name);
    this.skipped.set(task.name, {
      strategy: task.name,
      items: (s?.items ?? 0) + 1,
      estimate: estimate.cost,
      basis: estimate.basis,
      left,
    });
  }

  /**
   * Every (item, strategy, repeat) not yet done, made as it is reached: a list of them all would
   * grow with the evaluation (90,000 tasks for 10,000 items x 9 strategies).
   */
  private *tasks(skip: ReadonlySet<string>): Generator<Task, void> {
    const e = this.o.evaluation;
    for (const item of this.o.items)
      for (const strategy of e.strategies)
        for (let repeat = 0; repeat < e.repeats; repeat++) {
          const name = strategyName(strategy);
          const cell = { item: item.id, strategy: name, repeat };
          if (inShard(cell, this.o.shard) && !skip.has(resultKey(cell)))
            yield { item, strategy, name, repeat };
        }
  }

  /**
   * Counts what the stored results and partials of earlier sessions spent and settled, and
   * returns the queue of the tasks still to run.
   */
  private load(): Generator<Task, void> {
    const stored = this.o.previous ?? [];
    // Every stored line's spend counts (an errored attempt may have paid for calls); its results
    // count by key, the last line of each.
    for (const r of stored) {
      this.spent += r.cost;
      if (!r.error) this.model.learnResult(r.strategy, r.cost);
    }
    const previous = latestResults(stored);
    for (const r of previous) if (r.error) this.errored.add(resultKey(r));
    // Errored keys are not skipped: their calls failed, so they run again.
    const skip = new Set(previous.filter((r) => !r.error).map(resultKey));
    // A stored partial's calls were paid for and are in no result yet.
    for (const [key, record] of this.o.partials ?? [])
      if (!skip.has(key)) {
        this.partials.set(key, record);
        this.spent += wholeTotals(record).cost;
      }
    let left = 0;
    for (const _task of this.tasks(skip)) left++;
    this.done = previous.length - this.errored.size;
    this.totalCount = this.done + left;
    this.startedAt = (this.o.now ?? Date.now)();
    this.emit();
    return this.tasks(skip);
  }

  /** Runs until every task is done, the cap is reached or the run is cancelled. */
  async run(): Promise<EvalOutcome> {
    const queue = this.load();
    const width = Math.max(1, this.o.taskConcurrency ?? this.o.evaluation.concurrency * 4);
    const inFlight = new Set<Promise<void>>();
    const cap = this.o.evaluation.maxCost;
    const waitFor = async (paused: boolean) => {
      const woken = new Promise<void>((resolve) => (this.wake = resolve));
      await (paused ? woken : Promise.race([woken, ...inFlight]));
      this.wake = null;
    };
    for (;;) {
      while (!this.stopReason && (this.pausedFlag || inFlight.size >= width))
        await waitFor(this.pausedFlag);
      if (this.stopReason) break;
      // Runs a pause cut short go first; then the tasks not reached yet.
      const task = this.again.shift() ?? nextOf(queue);
      if (!task) {
        if (inFlight.size === 0) break;
        // A run in flight may still come back to be run again (a pause): wait for it to settle.
        await waitFor(false);
        continue;
      }
      const estimate = await this.roomFor(task, inFlight, cap);
      if (this.stopReason) break;
      // A pause that came while it waited for room: it goes first once resumed.
      if (this.pausedFlag) {
        this.again.unshift(task);
        continue;
      }
      if (cap !== null && this.spent + this.reserved + estimate.cost > cap) {
        // Only this run would pass the cap: skip it, and let cheaper ones go on.
        this.refuse(task, estimate, cap);
        continue;
      }
      this.start(task, estimate.cost, inFlight);
    }
    await Promise.all(inFlight);
    this.emit();
    return this.outcome();
  }

  /**
   * The task's estimate once it may start beside the runs in flight. Under a cap, what runs
   * settles first when this run would not fit beside it (its real cost may leave room), and a
   * strategy nothing has been measured for runs one item at a time until it has been: a prior is a
   * guess, and parallel runs would all trust it.
   */
  private async roomFor(task: Task, inFlight: ReadonlySet<Promise<void>>, cap: number | null) {
    let estimate = this.estimate(task);
    const mustWait = (limit: number) =>
      this.spent + this.reserved + estimate.cost > limit ||
      (estimate.basis === "prior" && (this.flying.get(task.name) ?? 0) > 0);
    while (cap !== null && inFlight.size > 0 && mustWait(cap)) {
      await Promise.race(inFlight);
      estimate = this.estimate(task);
    }
    return estimate;
  }

  /** Skips a task the cap refuses; the first refusal is the block the outcome names. */
  private refuse(task: Task, estimate: { cost: number; basis: EstimateBasis }, cap: number) {
    this.capBlock ??= {
      item: task.item.id,
      strategy: task.name,
      estimate: estimate.cost,
      committed: this.spent + this.reserved,
      cap,
    };
    this.skip(task, estimate, Math.max(0, cap - this.spent - this.reserved));
  }

  /** Starts a task, its estimate reserved against the cap until it settles. */
  private start(task: Task, reserved: number, inFlight: Set<Promise<void>>) {
    this.reserved += reserved;
    this.flying.set(task.name, (this.flying.get(task.name) ?? 0) + 1);
    const p = this.runTask(task).finally(() => {
      this.reserved -= reserved;
      this.flying.set(task.name, (this.flying.get(task.name) ?? 1) - 1);
      inFlight.delete(p);
    });
    inFlight.add(p);
  }

  private outcome(): EvalOutcome {
    const skipped = [...this.skipped.values()];
    return {
      status: this.stopReason ?? (skipped.length > 0 ? "cost_cap" : "finished"),
      done: this.done,
      total: this.totalCount,
      cost: this.spent,
      skipped,
      errors: this.errored.size,
      capBlock: this.capBlock,
    };
  }

  /** Runs one task through the item step, and accounts for what it spent, kept and scored. */
  private async runTask(task: Task): Promise<void> {
    const e = this.o.evaluation;
    const posed = this.step.pose(task);
    const now = this.o.now ?? Date.now;
    const runId = newRunId(now());
    this.running++;
    this.emit();
    // A signal per run: each run's calls listen to their own, not all to one shared signal.
    const run = new AbortController();
    if (this.controller.signal.aborted) run.abort();
    this.runs.add(run);
    const key = resultKey({ item: task.item.id, strategy: task.name, repeat: task.repeat });
    const partial = this.partials.get(key);
    // This run's calls are this task's own for the response cache: a resumed, repeated or new
    // evaluation makes exactly the calls a fresh one would, and no two tasks share an answer.
    const scope: CallScope = { task: key };
    let record: RunRecord;
    try {
      record = await this.step.run(task, posed, runId, run.signal, partial, scope);
    } catch (e: unknown) {
      this.running--;
      throw e;
    } finally {
      this.runs.delete(run);
    }
    if (record.status === "cancelled" || this.controller.signal.aborted) {
      // Cut short by a pause, a cancel or the cap: what it paid for is spent, and kept to continue.
      // It counts as running until its partial is stored: "nothing running" means a reload now
      // loses nothing.
      try {
        this.spent += record.totals.cost;
        if (record.rounds.length > 0) {
          this.partials.set(key, record);
          await this.o.onPartial?.(key, record);
        }
        if (!this.stopReason) this.again.push(task);
      } finally {
        this.running--;
      }
      return this.emit();
    }
    this.running--;
    const scored = await this.step.score(task, posed, record, this.controller.signal, scope, now);
    if (!scored) return this.emit();
    const { result, error } = scored;
    // Only this run's own calls are new spend: a partial's were counted when it was cut short.
    this.spent += record.totals.cost + scored.judgeCost;
    if (!error) this.model.learnRun(task.name, record, result.cost);
    await this.o.onResult(result, record);
    if (partial) {
      this.partials.delete(key);
      await this.o.onPartial?.(key, null);
    }
    if (error) this.errored.add(key);
    else {
      this.errored.delete(key);
      this.done++;
    }
    this.doneThisSession++;
    if (e.maxCost !== null && this.spent >= e.maxCost && !this.stopReason) {
      this.stopReason = "cost_cap";
      this.controller.abort();
    }
    this.emit();
  }
}

/** The generator's next value, or undefined when it is done. */
function nextOf<T>(g: Generator<T, void>): T | undefined {
  const n = g.next();
  return n.done ? undefined : n.value;
}
