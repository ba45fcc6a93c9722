// Scores a stored evaluation's answers again in the studio, without new runs.
import { scorerLabel } from "../../engine/eval/report.ts";
import { scorerKind } from "../../engine/eval/scorers/kinds.ts";
import { rescoreSession } from "../../engine/eval/session.ts";
import { evalStore } from "./evalStore.ts";
import { judgeOptions, studioScoringDeps } from "./evalScoring.ts";
import { useStudio } from "../slices/store.ts";

let rescoring: AbortController | null = null;

/**
 * Re-scores the evaluation on screen with `scorerId` (its own scorer at today's version when it is
 * the same id) without calling a model, except a judge's calls: the stored results and definition
 * are replaced, each result naming the scorer and version that scored it.
 */
export async function rescoreEvaluation(scorerId: string, onlyUnscored = false): Promise<void> {
  const ui = useStudio.getState();
  const ev = ui.evaluation;
  if (!ev || rescoring || ui.evalPhase === "running" || ui.evalPhase === "paused") return;
  const same = scorerId === ev.scorer.id;
  const options = same
    ? ev.scorer.options
    : scorerKind(scorerId).needsJudge
      ? judgeOptions(ui.evalSetup.judge, ui.evalSetup.rubric)
      : {};
  // the newest version; a math evaluation keeps its grader profile
  const profile = same ? ev.scorer.profile : undefined;
  const spec = { id: scorerId, options, ...(profile ? { profile } : {}) };
  rescoring = new AbortController();
  try {
    const items = await evalStore().loadQuestions(ev.id);
    const made = await rescoreSession({
      evaluation: ev,
      results: ui.evalResults,
      items,
      spec,
      deps: studioScoringDeps(),
      signal: rescoring.signal,
      onlyUnscored,
      onScorer: (scorer) =>
        ui.patchEval({ evalMessage: `Re-scoring with ${scorerLabel(scorer)}…` }),
    });
    if (!made.ok) return ui.patchEval({ evalMessage: made.message });
    const { outcome, evaluation: next } = made;
    if (outcome.cancelled)
      return useStudio.getState().patchEval({ evalMessage: "Re-scoring cancelled." });
    await evalStore().saveResults(ev.id, outcome.results);
    await evalStore().saveEvaluation(next, items);
    const errors = outcome.errors
      ? `; ${outcome.errors} errored item(s) have no answer to score`
      : "";
    useStudio.getState().patchEval({
      evaluation: next,
      evalResults: outcome.results,
      evalMessage: `Re-scored with ${scorerId} v${made.scorer.version}: ${outcome.changed} verdict(s) changed${errors}.`,
    });
  } catch (e: unknown) {
    useStudio.getState().patchEval({
      evalMessage: `Re-scoring stopped: ${e instanceof Error ? e.message : String(e)}`,
    });
  } finally {
    rescoring = null;
  }
}
