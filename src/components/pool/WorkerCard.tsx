import { memo, useState } from "react";
import type { Worker } from "../../engine/schema/worker.ts";
import { newWorkerId } from "../../engine/pool/paper.ts";
import { modelName, moveWorker } from "../../state/slices/pool.ts";
import { useStudio } from "../../state/slices/store.ts";
import { ConnectionTest } from "./ConnectionTest.tsx";
import { EndpointFields } from "./EndpointFields.tsx";
import { GenerationFields } from "./GenerationFields.tsx";
import { InBrowserWorkerNote } from "./InBrowserWorkerNote.tsx";
import { RemoveButton, RemoveConfirm } from "./RemoveWorker.tsx";

const KIND_LABEL: Readonly<Record<Worker["kind"], string>> = {
  openai: "API",
  webllm: "in this browser",
  conductor: "the Conductor",
};

/**
 * Adds a copy of a worker at the end of the pool (so no step's Model id shifts), with its key: the
 * copy calls the same endpoint.
 */
function duplicateWorker(worker: Worker): void {
  const s = useStudio.getState();
  const id = newWorkerId();
  // Named from its model (numbered): copies are told apart once edited, never a chain of "(copy)".
  s.addWorker({ ...worker, id, name: modelName(worker.model.trim() || worker.name, s.pool) });
  // The key stays bound to the origin it was entered for (keybinding.ts).
  const key = s.keys[worker.id];
  if (key) s.setKey(id, key, s.keyOrigins[worker.id]);
}

/**
 * One worker of the pool: its Model id, every field, reorder, remove, and a connection test.
 * Memoised: a keystroke replaces one worker object, so only that card renders again.
 */
export const WorkerCard = memo(function WorkerCard({
  worker,
  index,
  last,
}: {
  worker: Worker;
  index: number;
  last: boolean;
}) {
  const [removing, setRemoving] = useState<number[] | null>(null);
  const update = (patch: Partial<Worker>) => useStudio.getState().updateWorker(worker.id, patch);
  return (
    <li className="worker-card" data-testid="worker-row" data-worker-id={worker.id}>
      <div className="worker-card-head row">
        <span className="step-number" title="Model id" data-testid="worker-model-id">
          {index}
        </span>
        <input
          aria-label="Name"
          data-testid="worker-name"
          className="worker-name"
          value={worker.name}
          onChange={(e) => update({ name: e.target.value })}
        />
        <span className="chip small">{KIND_LABEL[worker.kind]}</span>
        <span className="row">
          <button
            type="button"
            aria-label="Move up"
            disabled={index === 0}
            onClick={() => moveWorker(index, -1)}
          >
            ↑
          </button>
          <button
            type="button"
            aria-label="Move down"
            disabled={last}
            onClick={() => moveWorker(index, 1)}
          >
            ↓
          </button>
          <button
            type="button"
            aria-label="Duplicate"
            title="Add a copy of this worker at the end of the pool"
            data-testid="duplicate-worker"
            onClick={() => duplicateWorker(worker)}
          >
            Duplicate
          </button>
          <RemoveButton worker={worker} onAsk={setRemoving} />
        </span>
      </div>
      {removing && (
        <RemoveConfirm worker={worker} steps={removing} onClose={() => setRemoving(null)} />
      )}
      {worker.kind === "openai" && <EndpointFields worker={worker} />}
      {worker.kind === "webllm" && <InBrowserWorkerNote worker={worker} />}
      <GenerationFields worker={worker} />
      {worker.kind === "openai" && <ConnectionTest worker={worker} />}
    </li>
  );
});
