import { planNow } from "../../state/run/controller.ts";
import { selectInBackground, selectPhase, selectQuestion } from "../../state/slices/selectors.ts";
import { useStudio } from "../../state/slices/store.ts";
import { StartOrCancel } from "./StartOrCancel.tsx";

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
        <StartOrCancel
          running={phase === "planning" && !background}
          cancelTestId="stop-plan"
          cancelLabel="Stop"
          testId="plan"
          disabled={phase !== "idle"}
          onStart={() => void planNow()}
        >
          Plan with the Conductor
        </StartOrCancel>
      </div>
    </section>
  );
}
