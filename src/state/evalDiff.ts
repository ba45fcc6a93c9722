import { create } from "zustand";
import type { EvalResult, Evaluation } from "../engine/eval/schema.ts";
import { useEval } from "./eval.ts";
import { evalStore } from "./evalController.ts";

/** The stored evaluation the one on screen is compared with (the diff's B side). */
interface EvalDiffState {
  /** Stored evaluations of the same question set as the one on screen, newest first. */
  choices: Evaluation[];
  other: { evaluation: Evaluation; results: EvalResult[] } | null;
}

export const useEvalDiff = create<EvalDiffState>()(() => ({ choices: [], other: null }));

/** Lists the stored evaluations that ran the same questions (same dataset hash) as the one on screen. */
export async function loadDiffChoices(): Promise<void> {
  const ev = useEval.getState().evaluation;
  if (!ev) return useEvalDiff.setState({ choices: [], other: null });
  const all = await evalStore().listEvaluations();
  const choices = all.filter((e) => e.id !== ev.id && e.dataset.hash === ev.dataset.hash);
  const other = useEvalDiff.getState().other;
  useEvalDiff.setState({
    choices,
    other: other && choices.some((c) => c.id === other.evaluation.id) ? other : null,
  });
}

/** Chooses the evaluation to compare with (null: none). */
export async function chooseDiff(id: string | null): Promise<void> {
  const evaluation = useEvalDiff.getState().choices.find((c) => c.id === id);
  if (!evaluation) return useEvalDiff.setState({ other: null });
  const results = await evalStore().listItems(evaluation.id);
  useEvalDiff.setState({ other: { evaluation, results } });
}
