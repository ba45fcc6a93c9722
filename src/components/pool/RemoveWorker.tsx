import { useState, type ReactNode } from "react";
import type { Worker } from "../../engine/schema/worker.ts";
import { removeWorker } from "../../state/slices/pool.ts";
import { useStudio } from "../../state/slices/store.ts";

/** The 1-based numbers of the draft's steps that use this worker. */
function stepsUsing(workerId: string): number[] {
  return useStudio
    .getState()
    .history.present.steps.flatMap((s, i) => (s.worker === workerId ? [i + 1] : []));
}

const listed = (ns: number[]) =>
  ns.length === 1
    ? `Step ${ns[0]} uses`
    : `Steps ${ns.slice(0, -1).join(", ")} and ${ns.at(-1)} use`;

/**
 * The remove button. When steps of the workflow use the worker, it asks first (`onAsk` with their
 * numbers, shown by `RemoveConfirm`); otherwise it removes at once, and Undo brings it back.
 */
export function RemoveButton({
  worker,
  onAsk,
}: {
  worker: Worker;
  onAsk: (steps: number[]) => void;
}) {
  return (
    <button
      type="button"
      aria-label={`Remove ${worker.name}`}
      title="Remove this worker (Undo brings it back)"
      className="danger"
      data-testid="remove-worker"
      onClick={() => {
        const using = stepsUsing(worker.id);
        if (using.length) onAsk(using);
        else removeWorker(worker.id);
      }}
    >
      ×
    </button>
  );
}

/**
 * Asks before removing a worker that steps use: give them to another worker, remove anyway (they
 * then ask for a worker), or keep it.
 */
export function RemoveConfirm({
  worker,
  steps,
  onClose,
}: {
  worker: Worker;
  steps: number[];
  onClose: () => void;
}) {
  const pool = useStudio((s) => s.pool);
  const others = pool.filter((w) => w.id !== worker.id);
  const [to, setTo] = useState("");
  const target = others.find((w) => w.id === to) ?? others[0];
  return (
    <div
      className="remove-confirm"
      role="alertdialog"
      aria-label={`Remove ${worker.name}?`}
      data-testid="remove-confirm"
    >
      <p>
        {listed(steps)} “{worker.name}”.{" "}
        {target
          ? "Give them to another worker, or remove it and choose a worker for each later."
          : "Removing it leaves them without a worker until you choose one."}
      </p>
      <div className="row wrap">
        {target && (
          <>
            <select
              aria-label="Give the steps to"
              data-testid="reassign-to"
              value={target.id}
              onChange={(e) => setTo(e.target.value)}
            >
              {others.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
            <button
              type="button"
              data-testid="reassign-and-remove"
              onClick={() => {
                useStudio.getState().edit({ kind: "reassign", from: worker.id, to: target.id });
                removeWorker(worker.id);
              }}
            >
              Give them to {target.name} and remove
            </button>
          </>
        )}
        <button
          type="button"
          className="danger"
          data-testid="remove-anyway"
          onClick={() => removeWorker(worker.id)}
        >
          Remove anyway
        </button>
        <button type="button" data-testid="remove-cancel" onClick={onClose} autoFocus>
          Keep it
        </button>
      </div>
    </div>
  );
}

/**
 * For a question about replacing the pool: which steps would lose their worker (their worker id is
 * not in `next`), said plainly; nothing when none would.
 */
export function LosingSteps({ next }: { next: readonly { id: string }[] }) {
  const steps = useStudio((s) => s.history.present.steps);
  const ids = new Set(next.map((w) => w.id));
  const losing = steps.flatMap((s, i) => (s.worker && !ids.has(s.worker) ? [i + 1] : []));
  if (!losing.length) return null;
  return (
    <span data-testid="losing-steps">
      {" "}
      {listed(losing)} {losing.length === 1 ? "a worker" : "workers"} the new pool lacks:{" "}
      {losing.length === 1 ? "it" : "they"} will ask for a worker (Undo brings this pool back).
    </span>
  );
}

/** One step back or forward through pool edits; off when there is nothing to step over. */
function StepButton({
  verb,
  label,
  onClick,
  children,
}: {
  verb: "undo" | "redo";
  /** What the step would undo or redo, when there is one. */
  label: string | undefined;
  onClick: () => void;
  children: ReactNode;
}) {
  const Verb = verb === "undo" ? "Undo" : "Redo";
  return (
    <button
      type="button"
      data-testid={`pool-${verb}`}
      disabled={!label}
      title={label ? `${Verb}: ${label}` : `Nothing to ${verb}`}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/** Undo and redo of pool edits, with what each would undo. */
export function PoolUndoBar() {
  const undo = useStudio((s) => s.poolUndo.at(-1)?.label);
  const redo = useStudio((s) => s.poolRedo.at(-1)?.label);
  if (!undo && !redo) return null;
  const st = useStudio.getState;
  return (
    <div className="row pool-undo" data-testid="pool-undo-bar" role="status">
      <StepButton verb="undo" label={undo} onClick={() => st().undoPool()}>
        ↶ Undo{undo ? `: ${undo}` : ""}
      </StepButton>
      <StepButton verb="redo" label={redo} onClick={() => st().redoPool()}>
        ↷ Redo
      </StepButton>
    </div>
  );
}
