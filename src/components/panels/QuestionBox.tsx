import { cancelNow, planNow } from "../../state/run/controller.ts";
import { selectInBackground, selectPhase, selectQuestion } from "../../state/slices/selectors.ts";
import { useStudio } from "../../state/slices/store.ts";

/** The question and the Plan button: the Conductor designs a workflow for it. */
export function QuestionBox() {
  const question = useStudio(selectQuestion);
  const phase = useStudio(selectPhase);
  // Stop belongs to the plan on screen; one in the background is cancelled from its banner.
  const background = useStudio(selectInBackground);
  const setQuestion = useStudio((s) => s.setQuestion);
  return (
    <section className="panel question-box" aria-label="Question">
      <label htmlFor="question" className="panel-title">
        Question
      </label>
      <textarea
        id="question"
        data-testid="question"
        rows={5}
        placeholder="Ask something hard: the Conductor will design a team of models to answer it."
        value={question}
        onChange={(e) => setQuestion(e.target.value)}
      />
      <div className="row">
        {phase === "planning" && !background ? (
          <button type="button" className="danger" data-testid="stop-plan" onClick={cancelNow}>
            Stop
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            data-testid="plan"
            disabled={phase !== "idle"}
            onClick={() => void planNow()}
          >
            Plan with the Conductor
          </button>
        )}
      </div>
    </section>
  );
}
