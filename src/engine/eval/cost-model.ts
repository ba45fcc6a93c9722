// What an evaluation item will cost, learned from the calls already made: a strategy's own mean
// once it has results, else its steps at each worker's measured cost per call (and the
// Conductor's per plan), else the prior from prices and typical token counts (estimate.ts).
import type { RoundRecord, RunRecord } from "../schema/record.ts";
import type { Evaluation } from "./schema.ts";
import { priorParts } from "./prior-cost.ts";
import type { Strategy } from "./strategy.ts";

class Mean {
  private sum = 0;
  private n = 0;
  add(x: number): void {
    this.sum += x;
    this.n += 1;
  }
  get value(): number | undefined {
    return this.n > 0 ? this.sum / this.n : undefined;
  }
}

/** Where an estimate came from, from best to worst. */
export type EstimateBasis = "strategy" | "calls" | "prior";

export interface CostEstimate {
  cost: number;
  basis: EstimateBasis;
}

/** Every finished call of a run's rounds: the Conductor's plans (rejected ones too) and the steps. */
function walkCalls(
  rounds: readonly RoundRecord[],
  onPlan: (cost: number) => void,
  onStep: (worker: string, cost: number) => void,
): void {
  for (const round of rounds) {
    const plan = round.plan;
    if (plan && plan.finishedAt !== null) {
      for (const r of plan.rejected ?? []) onPlan(r.cost ?? 0);
      if (plan.usage) onPlan(plan.cost ?? 0);
    }
    for (const step of round.steps) {
      if (step.nested) walkCalls(step.nested.rounds, onPlan, onStep);
      else if (step.status === "done" && step.usage) onStep(step.worker, step.cost ?? 0);
    }
  }
}

/** Learns costs as an evaluation runs and estimates the next item's (see the file comment). */
export class CostModel {
  private readonly byStrategy = new Map<string, Mean>();
  private readonly byWorker = new Map<string, Mean>();
  /** The Conductor's cost per run (all its plans in the run). */
  private readonly planning = new Mean();

  constructor(private readonly evaluation: Pick<Evaluation, "pool" | "conductor">) {}

  private mean(map: Map<string, Mean>, key: string): Mean {
    let m = map.get(key);
    if (!m) map.set(key, (m = new Mean()));
    return m;
  }

  /** A result of an earlier session: only its strategy's cost is known. */
  learnResult(strategy: string, cost: number): void {
    this.mean(this.byStrategy, strategy).add(cost);
  }

  /**
   * A finished run: its strategy's cost, each worker call's, and the Conductor's planning.
   * `itemCost` is what the item cost in all, when more than its run (an LLM judge's calls).
   */
  learnRun(strategy: string, record: RunRecord, itemCost = record.totals.cost): void {
    this.learnResult(strategy, itemCost);
    let planned = 0;
    let plans = 0;
    walkCalls(
      record.rounds,
      (cost) => {
        planned += cost;
        plans += 1;
      },
      (worker, cost) => this.mean(this.byWorker, worker).add(cost),
    );
    if (plans > 0) this.planning.add(planned);
  }

  /** The expected cost of one item of `strategy` (named `name` in results). */
  estimate(strategy: Strategy, name: string, questionTokens: number): CostEstimate {
    const own = this.byStrategy.get(name)?.value;
    if (own !== undefined) return { cost: own, basis: "strategy" };
    const e = this.evaluation;
    const parts = priorParts(strategy, e.pool, e.conductor, questionTokens);
    const measured = [...this.byWorker.values()].flatMap((m) =>
      m.value === undefined ? [] : [m.value],
    );
    const anyWorker = measured.length
      ? measured.reduce((a, b) => a + b, 0) / measured.length
      : undefined;
    let learned = false;
    const use = (value: number | undefined, prior: number) => {
      if (value === undefined) return prior;
      learned = true;
      return value;
    };
    const plan = strategy.kind === "conductor" ? use(this.planning.value, parts.plan) : 0;
    const calls = parts.calls.reduce(
      (sum, c) =>
        sum + use(c.worker === null ? anyWorker : this.byWorker.get(c.worker)?.value, c.cost),
      0,
    );
    return { cost: plan + calls, basis: learned ? "calls" : "prior" };
  }
}
