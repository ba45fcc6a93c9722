import type { Worker } from "../../engine/schema/worker.ts";
import { useStudio } from "../../state/store.ts";

/** One worker of the pool: name, endpoint, model, key, generation settings and prices. */
export function WorkerRow({
  worker,
  index,
  last,
}: {
  worker: Worker;
  index: number;
  last: boolean;
}) {
  const key = useStudio((s) => s.keys[worker.id] ?? "");
  const st = useStudio.getState;
  const update = (patch: Partial<Worker>) => st().updateWorker(worker.id, patch);
  const move = (by: -1 | 1) => {
    const pool = [...st().pool];
    const [w] = pool.splice(index, 1);
    if (w) pool.splice(index + by, 0, w);
    st().setPool(pool);
  };
  return (
    <div className="worker-row" data-testid="worker-row">
      <span className="step-number" title="Model id">
        {index}
      </span>
      <input
        aria-label="Name"
        value={worker.name}
        onChange={(e) => update({ name: e.target.value })}
      />
      <input
        aria-label="Base URL"
        value={worker.baseURL}
        onChange={(e) => update({ baseURL: e.target.value })}
      />
      <input
        aria-label="Model"
        placeholder="model"
        value={worker.model}
        onChange={(e) => update({ model: e.target.value })}
      />
      <input
        aria-label="API key"
        type="password"
        autoComplete="off"
        placeholder="API key"
        value={key}
        onChange={(e) => st().setKey(worker.id, e.target.value)}
      />
      <div className="row">
        <button type="button" aria-label="Move up" disabled={index === 0} onClick={() => move(-1)}>
          ↑
        </button>
        <button type="button" aria-label="Move down" disabled={last} onClick={() => move(1)}>
          ↓
        </button>
        <button
          type="button"
          aria-label="Remove"
          className="danger"
          onClick={() => st().removeWorker(worker.id)}
        >
          ×
        </button>
      </div>
    </div>
  );
}
