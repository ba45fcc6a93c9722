import { useStudio } from "../../state/store.ts";
import { ConductorSettings } from "./ConductorSettings.tsx";
import { WorkerRow } from "./WorkerRow.tsx";

function newWorkerId(): string {
  return `w-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

/** The Conductor's endpoint and the worker pool. Keys stay in memory (this page) only. */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const pool = useStudio((s) => s.pool);
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
        <ConductorSettings />
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
