import { useState } from "react";
import { latestResults } from "../../engine/eval/schema.ts";
import { scorerIds } from "../../engine/eval/scorers/registry.ts";
import { useEval } from "../../state/eval.ts";
import { rescoreEvaluation } from "../../state/evalRescore.ts";

/** Scores the stored answers again with a chosen scorer (today's version), calling no model. */
export function RescoreControl() {
  const evaluation = useEval((s) => s.evaluation);
  const phase = useEval((s) => s.phase);
  const unscored = useEval(
    (s) => latestResults(s.results).filter((r) => !r.error && r.correct === null).length,
  );
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
