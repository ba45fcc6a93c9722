import { useState } from "react";
import { loadPaperPool } from "../../state/pool.ts";
import { useStudio } from "../../state/store.ts";
import { KeysPanel } from "./KeysPanel.tsx";
import { PoolTransfer } from "./PoolTransfer.tsx";
import { PresetMenu } from "./PresetMenu.tsx";
import { WorkerCard } from "./WorkerCard.tsx";
import "./pool.css";

/** The worker pool: add from presets, edit, reorder, test, import and export, and the keys. */
export function PoolEditor() {
  const pool = useStudio((s) => s.pool);
  const size = pool.length;
  const [confirming, setConfirming] = useState(false);
  return (
    <section className="pool-editor" data-testid="pool-editor">
      <h3>Workers</h3>
      <p className="muted small">
        The order is the Model id order the Conductor sees. Keys go only to their own worker&apos;s
        endpoint.
      </p>
      <div className="row wrap pool-toolbar">
        <PresetMenu />
        {confirming ? (
          <span className="row" data-testid="confirm-paper-pool">
            Replace the {size} worker{size === 1 ? "" : "s"} with the paper pool?
            <button
              type="button"
              className="danger"
              data-testid="confirm-paper-pool-yes"
              onClick={() => {
                loadPaperPool();
                setConfirming(false);
              }}
            >
              Replace
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep mine
            </button>
          </span>
        ) : (
          <button
            type="button"
            data-testid="load-paper-pool"
            title="The seven workers of the Conductor paper, in the paper's order; you add the keys"
            onClick={() => (size ? setConfirming(true) : loadPaperPool())}
          >
            Load the paper pool
          </button>
        )}
        <PoolTransfer />
      </div>
      <KeysPanel />
      {pool.length === 0 && (
        <p className="muted" data-testid="pool-empty">
          No workers yet. Add one from a provider preset, or load the paper pool.
        </p>
      )}
      <ol className="worker-list">
        {pool.map((w, i) => (
          <WorkerCard key={w.id} worker={w} index={i} last={i === pool.length - 1} />
        ))}
      </ol>
    </section>
  );
}
