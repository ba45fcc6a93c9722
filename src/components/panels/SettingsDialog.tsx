import { useStudio } from "../../state/store.ts";
import { WorkerRow } from "./WorkerRow.tsx";

function newWorkerId(): string {
  return `w-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

/** The Conductor's endpoint and the worker pool. Keys stay in memory (this page) only. */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const conductor = useStudio((s) => s.conductor);
  const pool = useStudio((s) => s.pool);
  const conductorKey = useStudio((s) => s.keys.conductor ?? "");
  const st = useStudio.getState;
  return (
    <div className="dialog-backdrop" role="presentation" onClick={onClose}>
      <div
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-label="Settings"
        data-testid="settings"
        onClick={(e) => e.stopPropagation()}
      >
        <header className="dialog-head">
          <h2>Settings</h2>
          <button type="button" onClick={onClose} data-testid="settings-close">
            Done
          </button>
        </header>
        <section>
          <h3>Conductor</h3>
          <p className="muted small">
            An OpenAI-compatible endpoint serving the Conductor (vLLM or SGLang with the trained 7B,
            or a frontier model prompted with the same protocol).
          </p>
          <div className="grid2">
            <label className="field">
              Base URL
              <input
                data-testid="conductor-baseurl"
                value={conductor.baseURL}
                onChange={(e) => st().setConductor({ baseURL: e.target.value })}
              />
            </label>
            <label className="field">
              Model
              <input
                data-testid="conductor-model"
                value={conductor.model}
                onChange={(e) => st().setConductor({ model: e.target.value })}
              />
            </label>
            <label className="field">
              API key (kept in memory only)
              <input
                type="password"
                autoComplete="off"
                value={conductorKey}
                onChange={(e) => st().setKey("conductor", e.target.value)}
              />
            </label>
            <label className="field checkbox">
              <input
                type="checkbox"
                checked={conductor.namedWorkers}
                onChange={(e) => st().setConductor({ namedWorkers: e.target.checked })}
              />
              Show worker names and notes to the Conductor (off for a trained Conductor: anonymous
              ids)
            </label>
          </div>
        </section>
        <section>
          <h3>Workers</h3>
          <p className="muted small">The order is the Model id order the Conductor sees.</p>
          {pool.map((w, i) => (
            <WorkerRow key={w.id} worker={w} index={i} last={i === pool.length - 1} />
          ))}
          <button
            type="button"
            data-testid="add-worker"
            onClick={() =>
              st().addWorker({
                id: newWorkerId(),
                name: `Worker ${pool.length}`,
                kind: "openai",
                baseURL: "https://api.openai.com/v1",
                model: "",
                temperature: 0.2,
                maxTokens: 4096,
                prefill: false,
              })
            }
          >
            + Add worker
          </button>
        </section>
      </div>
    </div>
  );
}
