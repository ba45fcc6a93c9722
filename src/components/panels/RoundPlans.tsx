import { useStudio } from "../../state/slices/store.ts";

/**
 * The Conductor's reasoning in each refinement round (docs/protocol.md §1.6): whether it accepted
 * the answer or wrote a new workflow, and its raw text, one collapsible block per round.
 */
export function RoundPlans() {
  const rounds = useStudio((s) => s.record.rounds);
  const later = rounds.slice(1).filter((r) => r.plan);
  if (!later.length) return null;
  return (
    <div className="round-plans" data-testid="round-plans">
      {later.map((r) => {
        const verdict = r.plan?.error
          ? `plan failed: ${r.plan.error.code}`
          : r.accepted
            ? `accepted the answer of round ${r.index}`
            : r.plan?.finishedAt
              ? `new workflow, ${r.lists?.model_id.length ?? 0} step${r.lists?.model_id.length === 1 ? "" : "s"}`
              : "writing…";
        return (
          <details key={r.index} data-testid="round-plan">
            <summary>
              Round {r.index + 1}: <span className="muted">{verdict}</span>
            </summary>
            <pre className="conductor-raw" tabIndex={0}>
              {r.plan?.raw}
            </pre>
          </details>
        );
      })}
    </div>
  );
}
