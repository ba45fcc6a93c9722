import { useState } from "react";
import type { EvalResult } from "../../engine/eval/schema.ts";
import { latestResults } from "../../engine/eval/schema.ts";
import { scorerIds } from "../../engine/eval/scorers/registry.ts";
import type { StudioState } from "../../state/slices/store.ts";
import { useStudio } from "../../state/slices/store.ts";
import { rescoreEvaluation } from "../../state/eval/evalRescore.ts";

const unscoredOf = new WeakMap<EvalResult[], number>();

/**
 * The answers that have no verdict yet. A selector runs on every change of the one store (a
 * step's tokens too), so the count is made once per results array, not on each change.
 */
function selectUnscored(s: StudioState): number {
  let n = unscoredOf.get(s.evalResults);
  if (n === undefined) {
    n = latestResults(s.evalResults).filter((r) => !r.error && r.correct === null).length;
    unscoredOf.set(s.evalResults, n);
  }
  return n;
}

/** Scores the stored answers again with a chosen scorer (today's version), calling no model. */
export function RescoreControl() {
  const evaluation = useStudio((s) => s.evaluation);
  const phase = useStudio((s) => s.evalPhase);
  const unscored = useStudio(selectUnscored);
  const [scorer, setScorer] = useState(evaluation?.scorer.id ?? "");
  if (!evaluation) return null;
  const busy = phase === "running" || phase === "paused";
  const chosen = scorer || evaluation.scorer.id;
  return (
    <span className="eval-rescore">
      <select
        aria-label="Scorer to re-score with"
        data-testid="eval-rescore-scorer"
        value={chosen}
        onChange={(e) => setScorer(e.target.value)}
      >
        {scorerIds().map((id) => (
          <option key={id} value={id}>
            {id}
          </option>
        ))}
      </select>
      <button
        type="button"
        data-testid="eval-rescore"
        disabled={busy}
        title="Score the stored answers again without calling a model (a judge calls only its judge)"
        onClick={() => void rescoreEvaluation(chosen)}
      >
        Re-score
      </button>
      {unscored > 0 && (
        <button
          type="button"
          data-testid="eval-rescore-unscored"
          disabled={busy}
          title="Score again only the items without a verdict (a judge that failed, say)"
          onClick={() => void rescoreEvaluation(evaluation.scorer.id, true)}
        >
          Re-score {unscored} unscored
        </button>
      )}
    </span>
  );
}
