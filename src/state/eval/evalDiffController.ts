// The evaluation diff's controller: lists stored evaluations of the same questions, loads one.
import { evalStore } from "./evalStore.ts";
import { useStudio } from "../slices/store.ts";

/** Lists the stored evaluations that ran the same questions (same dataset hash) as the one on screen. */
export async function loadDiffChoices(): Promise<void> {
  const ev = useStudio.getState().evaluation;
  if (!ev) return useStudio.setState({ evalDiffChoices: [], evalDiffOther: null });
  const all = await evalStore().listEvaluations();
  const choices = all.filter((e) => e.id !== ev.id && e.dataset.hash === ev.dataset.hash);
  const other = useStudio.getState().evalDiffOther;
  useStudio.setState({
    evalDiffChoices: choices,
    evalDiffOther: other && choices.some((c) => c.id === other.evaluation.id) ? other : null,
  });
}

/** Chooses the evaluation to compare with (null: none). */
export async function chooseDiff(id: string | null): Promise<void> {
  const evaluation = useStudio.getState().evalDiffChoices.find((c) => c.id === id);
  if (!evaluation) return useStudio.setState({ evalDiffOther: null });
  const results = await evalStore().listItems(evaluation.id);
  useStudio.setState({ evalDiffOther: { evaluation, results } });
}
