import { formatCost } from "../../engine/cost.ts";
import type { ConductorConfig } from "../../engine/schema/worker.ts";
import { planNow } from "../../state/run/controller.ts";
import { selectFallbackName, selectPhase, selectPlan } from "../../state/slices/selectors.ts";
import { useStudio } from "../../state/slices/store.ts";
import { RetryNote, Thinking } from "../ui/Thinking.tsx";
import { ErrorBadge } from "../ui/ErrorBadge.tsx";
import { RoundPlans } from "./RoundPlans.tsx";

/** A plan's cost: free in the browser, unknown for a remote Conductor without a price. */
function planCost(cost: number, providerCost: boolean, conductor: ConductorConfig | null): string {
  if (conductor?.kind === "webllm") return "free (in this browser)";
  if (conductor && !conductor.price && !providerCost)
    return "cost unknown (set the Conductor's price in Settings)";
  return formatCost(cost);
}

/** The Conductor's streamed reasoning, its raw output and whether the plan parsed. */
export function ConductorPanel() {
  const plan = useStudio(selectPlan);
  const phase = useStudio(selectPhase);
  const stats = useStudio((s) => (s.conductor.backend === "webllm" ? s.ibStats : null));
  const planner = useStudio((s) => s.record.conductor);
  const fallback = useStudio(selectFallbackName);
  if (!plan) {
    return (
      <section className="panel conductor-panel" aria-label="Conductor">
        <div className="panel-title">Conductor</div>
        <p className="muted">The Conductor's reasoning and plan appear here while it writes.</p>
      </section>
    );
  }
  const writing = phase === "planning" && plan.finishedAt === null;
  // A plan that never finished and is not being written: the page went away mid-plan (a reload).
  const cut = !writing && plan.finishedAt === null && !plan.error;
  // A reasoning Conductor thinks before it writes a word of its plan.
  const thinking = writing && !plan.raw && !!plan.reasoning;
  const usage = plan.usage;
  return (
    <section className="panel conductor-panel" aria-label="Conductor">
      <div className="panel-title">
        Conductor{" "}
        {writing && (
          <span className="badge badge-running" data-testid="conductor-activity">
            {plan.retry ? "waiting to retry…" : thinking ? "thinking…" : "writing…"}
          </span>
        )}
        {cut && (
          <span className="badge badge-interrupted" data-testid="plan-badge">
            plan interrupted
          </span>
        )}
        {!writing && !cut && !plan.error && (
          <span className="badge badge-done" data-testid="plan-badge">
            plan parsed
          </span>
        )}
        {!writing && plan.error && <ErrorBadge code={plan.error.code} testId="plan-badge" />}
      </div>
      {plan.notice && (
        <p className="warning" data-testid="plan-notice">
          {plan.notice}
        </p>
      )}
      {fallback && (
        <div className="warning fallback-note" role="status" data-testid="plan-fallback">
          <strong>The Conductor failed to plan</strong>, so the fallback worker{" "}
          <strong>{fallback}</strong> answered the question alone instead (Settings → Conductor).
          Its answer is the run's answer; no workflow was planned.
        </div>
      )}
      {plan.error && (
        <div className="error-box" role="alert" data-testid="plan-error">
          <p>{plan.error.message}</p>
          <p className="muted" data-testid="plan-error-next">
            {plan.raw.trim()
              ? "Read the raw output below, retry, or build the workflow by hand on the canvas."
              : "The Conductor wrote nothing. Fix what the message says, then retry, or build the workflow by hand on the canvas."}
          </p>
          <button type="button" onClick={() => void planNow()} disabled={phase !== "idle"}>
            Retry planning
          </button>
        </div>
      )}
      {cut && (
        <p className="warning" data-testid="plan-cut">
          The Conductor was still writing when the page went away: its output below stops there and
          was never parsed. Resume asks it again.
        </p>
      )}
      {plan.retry && <RetryNote retry={plan.retry} testId="conductor-retry" />}
      {plan.reasoning && (
        <Thinking text={plan.reasoning} streaming={thinking} testId="conductor-thinking" />
      )}
      {/* An empty box would read as an output to look at: none until the Conductor writes. */}
      {(plan.raw || writing) && (
        <pre
          className={`conductor-raw${plan.retry ? " abandoned" : ""}`}
          data-testid="conductor-raw"
          tabIndex={0}
        >
          {plan.raw || "…"}
        </pre>
      )}
      {usage && (
        <div className="muted small">
          {usage.promptTokens + usage.completionTokens} tokens
          {usage.estimated ? " (estimated)" : ""} ·{" "}
          {planCost(plan.cost ?? 0, usage.providerCost !== undefined, planner)}
          {usage.cached && " · from the response cache"}
          {plan.startedAt !== null &&
            plan.finishedAt !== null &&
            ` · ${((plan.finishedAt - plan.startedAt) / 1000).toFixed(1)} s`}
        </div>
      )}
      {stats && (
        <div className="muted small" data-testid="webllm-speed">
          prefill {stats.prefillTokensPerSec.toFixed(1)} tok/s · decode{" "}
          {stats.decodeTokensPerSec.toFixed(1)} tok/s
        </div>
      )}
      <RoundPlans />
    </section>
  );
}
