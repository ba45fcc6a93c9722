import { findWorker } from "../../engine/conductor/shown-ids.ts";
import { formatCost } from "../../engine/cost.ts";
import { notInPool } from "../../engine/pool/cost-estimate.ts";
import { runNow } from "../../state/run/controller.ts";
import {
  selectDoc,
  selectPhase,
  selectPool,
  selectSelectedIds,
} from "../../state/slices/selectors.ts";
import { useStudio } from "../../state/slices/store.ts";
import { useFormerWorkers } from "../useFormerWorkers.ts";
import { isExampleRun } from "../examples/examples.ts";
import { CopyButton } from "../ui/CopyButton.tsx";
import { Markdown } from "../ui/Markdown.tsx";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { RetryNote, Thinking } from "../ui/Thinking.tsx";
import { AccessEditor } from "./AccessEditor.tsx";
import { WorkerPreview } from "./WorkerPreview.tsx";

/** Everything about the selected step: worker, subtask, access, output, and what its worker reads. */
export function Inspector() {
  const doc = useStudio(selectDoc);
  const pool = useStudio(selectPool);
  const selectedIds = useStudio(selectSelectedIds);
  const phase = useStudio(selectPhase);
  const former = useFormerWorkers();
  const example = useStudio((s) => isExampleRun(s.record.id));
  // The first selected id that is still a step: a deleted step's id may linger in the selection
  // (React Flow never reports it deselected), and must not hide the step clicked after it.
  const index =
    selectedIds.map((id) => doc.steps.findIndex((s) => s.id === id)).find((i) => i >= 0) ?? -1;
  const step = doc.steps[index];
  // The one step shown: another step's streaming tokens do not render the Inspector again.
  const result = useStudio((s) => (step ? s.results[step.id] : undefined));
  if (!step) {
    return (
      <section className="panel inspector" aria-label="Inspector">
        <div className="panel-title">Inspector</div>
        <p className="muted">
          Select a step on the canvas to edit it and see what its worker will read.
        </p>
      </section>
    );
  }
  const st = useStudio.getState;
  // A worker that left the pool is named as the pool before the edit, or the open run, knew it.
  const lost = findWorker(former, step.worker)?.name;
  const status = result?.status ?? "idle";
  const idle = phase === "idle";
  return (
    <section className="panel inspector" aria-label="Inspector" data-testid="inspector">
      <div className="panel-title">
        Step {index + 1} of {doc.steps.length}{" "}
        <StatusBadge
          status={status}
          skipCode={result?.status === "skipped" ? result.error?.code : undefined}
        />
      </div>
      <div className="row wrap">
        <button
          type="button"
          disabled={index === 0}
          onClick={() => st().edit({ kind: "move", id: step.id, direction: -1 })}
        >
          ← Earlier
        </button>
        <button
          type="button"
          disabled={index === doc.steps.length - 1}
          onClick={() => st().edit({ kind: "move", id: step.id, direction: 1 })}
        >
          Later →
        </button>
        <button type="button" onClick={() => st().edit({ kind: "duplicate", id: step.id })}>
          Duplicate
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => st().edit({ kind: "delete", ids: [step.id] })}
        >
          Delete
        </button>
      </div>
      <label className="field">
        Worker
        <select
          data-testid="worker-select"
          value={step.worker}
          onChange={(e) => st().edit({ kind: "setWorker", id: step.id, worker: e.target.value })}
        >
          {!findWorker(pool, step.worker) && (
            <option value={step.worker} disabled>
              {step.worker === "" ? "Choose a worker" : notInPool(step.worker, lost, example)}
            </option>
          )}
          {pool.map((w, i) => (
            <option key={w.id} value={w.id}>
              {i}: {w.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Subtask
        <textarea
          data-testid="subtask-input"
          rows={5}
          value={step.subtask}
          onChange={(e) =>
            st().edit(
              { kind: "setSubtask", id: step.id, subtask: e.target.value },
              `subtask:${step.id}`,
            )
          }
          onBlur={() => st().endEditGroup()}
        />
      </label>
      <AccessEditor id={step.id} index={index} access={step.access} />
      {result &&
        (status === "failed" ||
          status === "skipped" ||
          status === "done" ||
          status === "stale" ||
          status === "cancelled") && (
          <div className="row">
            <button
              type="button"
              data-testid="rerun-from"
              disabled={!idle}
              onClick={() => void runNow(step.id)}
            >
              {status === "failed" ? "Retry this step" : "Re-run from here"}
            </button>
          </div>
        )}
      {result?.retry ? (
        <RetryNote retry={result.retry} testId="inspector-retry" />
      ) : (
        result?.error && (
          <div className="error-box" role="alert">
            {result.error.message}
          </div>
        )
      )}
      {result?.reasoning && (
        <Thinking
          text={result.reasoning}
          streaming={status === "running" && !result.output}
          testId="inspector-thinking"
        />
      )}
      {result?.output && (
        <div
          className={`inspector-output${result.retry ? " abandoned" : ""}`}
          data-testid="inspector-output"
        >
          <div className="muted small row">
            <CopyButton text={result.output} label="Copy this output" testId="copy-output" />
            {/* One box of text beside the button, so a long line wraps instead of squeezing it. */}
            <span>
              {result.usage &&
                `${result.usage.promptTokens} in + ${result.usage.completionTokens} out tokens${result.usage.estimated ? " (estimated)" : ""} · ${formatCost(result.cost ?? 0)}${result.usage.providerCost !== undefined ? " (provider's figure)" : ""}`}
              {result.usage?.reasoningTokens !== undefined &&
                ` · ${result.usage.reasoningTokens} of them reasoning`}
              {result.usage?.cached && (
                <span data-testid="inspector-cached">
                  {` · from the response cache, no call made (${formatCost(result.usage.savedCost ?? 0)} saved)`}
                </span>
              )}
              {result.attempts > 1 && ` · ${result.attempts} attempts`}
            </span>
          </div>
          {/* Parsing Markdown on every streamed frame is the costliest render: plain text until done. */}
          {status === "running" ? (
            <pre className="streaming-output" tabIndex={0}>
              {result.output}
            </pre>
          ) : (
            <Markdown text={result.output} />
          )}
        </div>
      )}
      <WorkerPreview index={index} />
    </section>
  );
}
