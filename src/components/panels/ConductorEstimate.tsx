import { findWorker } from "../../engine/conductor/shown-ids.ts";
import { useMemo } from "react";
import { buildConductorMessages } from "../../engine/conductor/prompt.ts";
import { formatCost } from "../../engine/cost.ts";
import { stepsOf } from "../../engine/graph/document.ts";
import type { ConductorEstimate as Estimate } from "../../engine/pool/conductor-estimate.ts";
import { conductorPricing, estimateConductorCalls } from "../../engine/pool/conductor-estimate.ts";
import type { Span } from "../../engine/pool/cost-estimate.ts";
import { isTop } from "../../engine/run/focus.ts";
import { stepsAt } from "../../engine/run/continue.ts";
import { conductorConfigOf } from "../../state/run/backends.ts";
import { TOP } from "../../state/slices/run.ts";
import { selectDoc, selectPool, selectQuestion } from "../../state/slices/selectors.ts";
import type { StudioState } from "../../state/slices/store.ts";
import { useStudio } from "../../state/slices/store.ts";

/**
 * The cost of the open planned run's plan when Run continues that run (its workflow unedited, as
 * runNow decides): the plan then counts in the run's totals. Null otherwise.
 */
function selectPlannedCost(s: StudioState): number | null {
  const r = s.record;
  if (r.status !== "planned" || !isTop(s.focus) || r.question !== s.question) return null;
  const plan = r.rounds[0]?.plan;
  if (!plan || plan.finishedAt === null) return null;
  const same = JSON.stringify(stepsAt(r, TOP)) === JSON.stringify(stepsOf(s.history.present));
  return same ? (plan.cost ?? 0) : null;
}
const selectRecordConductor = (s: StudioState) => s.record.conductor;
const selectSettings = (s: StudioState) => s.conductor;
const selectMaxSteps = (s: StudioState) => s.maxSteps;
const selectTopFocus = (s: StudioState) => isTop(s.focus);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function plannedText(cost: number, pricing: Estimate["pricing"]): string {
  if (pricing === "free") return "planning free (in-browser Conductor)";
  if (pricing === "no_price") return "planning cost unknown: the Conductor has no price";
  return `planning ${formatCost(cost)} (spent)`;
}

function callsText(e: Estimate): string {
  const calls = `≤ ${plural(e.calls, "more Conductor call")}`;
  if (e.pricing === "free") return `${calls}, free`;
  if (!e.cost) return `${calls}, unpriced: the Conductor has no price`;
  return `${calls} ≤ ${formatCost(e.cost.max)} (~${formatCost(e.cost.typical)})`;
}

/**
 * The Conductor's part of the pre-run estimate: the plan this run continues (already spent, in its
 * totals) and the calls it may still make (refinement rounds, self-selected steps), or that the
 * Conductor has no price. Nothing when the run makes and keeps no Conductor call.
 */
export function ConductorEstimate({ answer }: { answer: Span | undefined }) {
  const doc = useStudio(selectDoc);
  const pool = useStudio(selectPool);
  const question = useStudio(selectQuestion);
  const settings = useStudio(selectSettings);
  const maxSteps = useStudio(selectMaxSteps);
  const top = useStudio(selectTopFocus);
  const plannedCost = useStudio(selectPlannedCost);
  const planner = useStudio(selectRecordConductor);
  const estimate = useMemo(() => {
    const conductor = conductorConfigOf({ ...useStudio.getState(), conductor: settings });
    const planMessages = buildConductorMessages({
      question,
      pool,
      maxSteps,
      namedWorkers: settings.namedWorkers,
      continuesAssistant: false,
      template: settings.template,
    });
    return estimateConductorCalls({
      conductor,
      planMessages,
      refineRounds: top ? settings.rounds : 0,
      selfSelectedSteps: doc.steps.filter((st) => findWorker(pool, st.worker)?.kind === "conductor")
        .length,
      answerTokens: answer ?? { max: 0, typical: 0 },
    });
  }, [doc, pool, question, settings, maxSteps, top, answer]);
  const parts = [
    ...(plannedCost !== null && planner
      ? [plannedText(plannedCost, conductorPricing(planner))]
      : []),
    ...(estimate.calls > 0 ? [callsText(estimate)] : []),
  ];
  if (!parts.length) return null;
  return (
    <span data-testid="run-estimate-conductor" data-pricing={estimate.pricing}>
      {" · "}
      {parts.join(" + ")}
    </span>
  );
}
