import type { WebLLMProblem } from "../../engine/llm/webllm/webllm-errors.ts";

/** A classified in-browser model problem: what happened and what to do next. */
export function ProblemBox({ problem }: { problem: WebLLMProblem }) {
  return (
    <div className="error-box" role="alert" data-testid="webllm-problem" data-code={problem.code}>
      <strong>{problem.title}</strong>
      <p>{problem.message}</p>
      {problem.nextSteps.length > 0 && (
        <ul className="next-steps">
          {problem.nextSteps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ul>
      )}
      {problem.detail && (
        <details>
          <summary>Details</summary>
          <pre className="small">{problem.detail}</pre>
        </details>
      )}
    </div>
  );
}
