import type { RoundRecord, RunRecord, StepRecord } from "../../engine/schema/record.ts";
import { formatCost } from "../../engine/cost.ts";

/** Which earlier steps a step read, in words (steps numbered from 1, as on the canvas). */
function accessText(step: StepRecord): string {
  if (step.access === "all")
    return step.index === 0 ? "sees the question only" : "sees every earlier step";
  if (step.access.length === 0) return "sees the question only";
  return `sees step ${step.access.map((i) => i + 1).join(", ")}`;
}

function StepCard({ step }: { step: StepRecord }) {
  const tokens = step.usage ? step.usage.promptTokens + step.usage.completionTokens : null;
  return (
    <li className="item-step" data-testid={`item-step-${step.index}`} data-status={step.status}>
      <div className="item-step-head">
        <strong>
          Step {step.index + 1} · {step.workerName}
        </strong>
        <span className="muted">{accessText(step)}</span>
        <span className={`item-status status-${step.status}`}>{step.status}</span>
        {tokens !== null && <span className="muted">{tokens} tokens</span>}
        {step.cost !== null && (
          <span className="muted">
            {step.usage?.unpriced ? "cost unknown" : formatCost(step.cost)}
          </span>
        )}
        {step.usage?.cached && (
          <span className="muted" data-testid={`item-step-cached-${step.index}`}>
            from the response cache, no call made
            {step.usage.savedCost ? ` (${formatCost(step.usage.savedCost)} saved)` : ""}
          </span>
        )}
      </div>
      <p className="item-subtask">{step.subtask}</p>
      {step.error && <p className="problem">{step.error.message}</p>}
      {step.output && <pre className="item-output">{step.output}</pre>}
    </li>
  );
}

function Round({ round, rounds }: { round: RoundRecord; rounds: number }) {
  return (
    <section className="item-round" aria-label={`Round ${round.index + 1}`}>
      {rounds > 1 && <h4>Round {round.index + 1}</h4>}
      {round.plan && (
        <details className="item-plan">
          <summary>
            The Conductor&apos;s plan
            {round.plan.cost === null
              ? ""
              : round.plan.usage?.unpriced
                ? " (cost unknown)"
                : ` (${formatCost(round.plan.cost)})`}
          </summary>
          <pre className="item-output">{round.plan.raw}</pre>
        </details>
      )}
      {round.accepted && <p className="muted">The Conductor accepted the previous answer.</p>}
      {round.fallback && (
        <p className="muted">
          The Conductor could not plan ({round.fallback.reason.message}); one worker answered alone.
        </p>
      )}
      <ol className="item-steps">
        {round.steps.map((s) => (
          <StepCard key={s.index} step={s} />
        ))}
      </ol>
    </section>
  );
}

/** An evaluation item's run, read-only: each round's plan and steps with their outputs. */
export function ItemRun({ record }: { record: RunRecord }) {
  return (
    <div className="item-run" data-testid="item-run">
      {record.rounds.map((r) => (
        <Round key={r.index} round={r} rounds={record.rounds.length} />
      ))}
      {record.rounds.length === 0 && <p className="muted">{record.message || "No steps ran."}</p>}
    </div>
  );
}
