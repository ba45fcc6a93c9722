import type { EvalItem } from "./dataset/item-schema.ts";
import type { JudgeMeter, JudgeSpend } from "./judge-meter.ts";
import { poseItem } from "./pose.ts";
import type { EvalResult, Evaluation } from "./schema.ts";
import { latestResults } from "./schema.ts";
import { scorerKind } from "./scorers/kinds.ts";
import type { ScoreResult, Scorer } from "./scorers/types.ts";

/** The verdict fields a scorer sets; everything else of a result is what the run measured. */
export function applyScore(result: EvalResult, scored: ScoreResult, scorer: Scorer): EvalResult {
  const { reason: _reason, strict: _strict, code: _code, ...kept } = result;
  return {
    ...kept,
    correct: scored.correct,
    score: scored.score,
    extracted: scored.extracted,
    ...(scored.reason ? { reason: scored.reason } : {}),
    ...scorerKind(scorer.id).readDetails(scored.details),
    scoredBy: {
      id: scorer.id,
      version: scorer.version,
      ...(scorer.profile !== undefined ? { profile: scorer.profile } : {}),
    },
  };
}

/** A result with more judge calls on it: added to its cost, tokens and calls, and to `judge`. */
export function addJudgeSpend(r: EvalResult, judge: JudgeSpend | undefined): EvalResult {
  if (!judge?.calls) return r;
  const before = r.judge ?? { calls: 0, tokens: 0, cost: 0 };
  return {
    ...r,
    tokens: r.tokens + judge.tokens,
    cost: r.cost + judge.cost,
    calls: r.calls + judge.calls,
    judge: {
      calls: before.calls + judge.calls,
      tokens: before.tokens + judge.tokens,
      cost: before.cost + judge.cost,
    },
  };
}

/** A run that gave no answer is wrong whatever the scorer (never sent to it). */
export function noAnswer(message: string | null): ScoreResult {
  return {
    correct: false,
    score: 0,
    extracted: null,
    reason: message ?? "The run gave no answer.",
  };
}

export interface RescoreOptions {
  evaluation: Evaluation;
  results: readonly EvalResult[];
  scorer: Scorer;
  /** The evaluation's questions, when known: the judge reads the question, code needs tests. */
  items?: readonly EvalItem[];
  signal: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** Only results without a verdict (a failed judge, say): the others keep theirs. */
  onlyUnscored?: boolean;
  /** The judge's meter: its calls add to each item's cost, tokens and calls. */
  judgeMeter?: JudgeMeter;
}

export interface RescoreOutcome {
  results: EvalResult[];
  /** Results whose verdict changed (right, wrong or unscored). */
  changed: number;
  /** Errored results, left as they are: they have no answer to score; resume runs them again. */
  errors: number;
  cancelled: boolean;
}

/**
 * Scores stored answers again, with another scorer or version, without calling a model (a judge
 * scorer calls only its judge). Each result then carries the scorer and version that scored it.
 */
export async function rescoreResults(o: RescoreOptions): Promise<RescoreOutcome> {
  const current = latestResults(o.results);
  const byId = new Map((o.items ?? []).map((i) => [i.id, i]));
  const out: EvalResult[] = [];
  let changed = 0;
  let errors = 0;
  for (const [n, r] of current.entries()) {
    if (o.signal.aborted)
      return { results: [...out, ...current.slice(n)], changed, errors, cancelled: true };
    if (r.error) {
      errors++;
      out.push(r);
      continue;
    }
    if (o.onlyUnscored && r.correct !== null) {
      out.push(r);
      continue;
    }
    const signal = AbortSignal.any([o.signal]);
    const item = byId.get(r.item);
    const posed = item
      ? poseItem(item, o.evaluation.seed, o.evaluation.scorer.id, o.evaluation.instruction)
      : null;
    const scored =
      r.answer === null
        ? noAnswer(r.reason ?? null)
        : await o.scorer.score(
            r.answer,
            {
              question: posed?.question ?? "",
              expected: r.expected ?? undefined,
              tests: item?.tests,
            },
            signal,
          );
    const judge = o.judgeMeter?.take(signal);
    if (o.signal.aborted)
      return { results: [...out, ...current.slice(n)], changed, errors, cancelled: true };
    const next = addJudgeSpend(applyScore(r, scored, o.scorer), judge);
    if (next.correct !== r.correct) changed++;
    out.push(next);
    o.onProgress?.(n + 1, current.length);
  }
  return { results: out, changed, errors, cancelled: false };
}
