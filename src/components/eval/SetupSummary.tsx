import { formatCost } from "../../engine/cost.ts";
import type { Evaluation } from "../../engine/eval/schema.ts";
import { callsText, explainStrategy } from "../../engine/eval/strategy-explain.ts";
import { strategyName } from "../../engine/eval/strategy.ts";
import { choiceLabel } from "./StrategyOptions.tsx";

/** The dataset columns an evaluation read, as "question ← problem". */
function mappingLines(e: Evaluation): string[] {
  const m = e.dataset.mapping;
  if (!m) return [];
  return Object.entries(m).flatMap(([field, column]) =>
    typeof column === "string" && column ? [`${field} ← ${column}`] : [],
  );
}

/**
 * An evaluation's setup as it was started, read-only: its questions and columns, strategies (with
 * who they call and the calls a question), scorer, repeats and cap. Shown while it runs or pauses,
 * and for a stored one that can be resumed.
 */
export function SetupSummary({ evaluation: e, title }: { evaluation: Evaluation; title: string }) {
  const columns = mappingLines(e);
  return (
    <section className="eval-card eval-summary" aria-label={title} data-testid="eval-summary">
      <h3>{title}</h3>
      <dl>
        <dt>Questions</dt>
        <dd data-testid="eval-summary-questions">
          {e.dataset.size} from {e.dataset.name || e.name}
          {e.dataset.source ? ` (${e.dataset.source.dataset})` : ""}
        </dd>
        {columns.length > 0 && (
          <>
            <dt>Columns</dt>
            <dd data-testid="eval-summary-columns" className="eval-summary-columns">
              {columns.map((c) => (
                <span key={c}>{c}</span>
              ))}
            </dd>
          </>
        )}
        <dt>Scorer</dt>
        <dd>
          {e.scorer.id}
          {e.scorer.profile ? ` (${e.scorer.profile})` : ""}
        </dd>
        <dt>Repeats</dt>
        <dd>{e.repeats}</dd>
        <dt>Concurrency</dt>
        <dd>{e.concurrency} per endpoint</dd>
        <dt>Spending cap</dt>
        <dd>{e.maxCost === null ? "none" : formatCost(e.maxCost)}</dd>
      </dl>
      <ul className="eval-summary-strategies" data-testid="eval-summary-strategies">
        {e.strategies.map((s) => {
          const name = strategyName(s);
          const about = explainStrategy(s, e.pool);
          return (
            <li key={name} data-testid={`eval-summary-strategy-${name}`}>
              <strong>{choiceLabel(name)}</strong>
              {typeof about === "string" ? (
                <span className="problem"> {about}</span>
              ) : (
                <>
                  <span className="strategy-calls"> · {callsText(about.calls)}</span>
                  <span className="muted"> {about.text}</span>
                </>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
