import { useEffect, useMemo, useState } from "react";
import { paperPool } from "../../engine/pool/paper.ts";
import { loadPaperPool } from "../../state/slices/pool.ts";
import { useStudio } from "../../state/slices/store.ts";
import { KeysPanel } from "./KeysPanel.tsx";
import { PoolTransfer } from "./PoolTransfer.tsx";
import { PresetMenu } from "./PresetMenu.tsx";
import { LosingSteps, PoolUndoBar } from "./RemoveWorker.tsx";
import { WorkerCard } from "./WorkerCard.tsx";
import "./pool.css";

/** Cards rendered at once when Settings opens; the rest follow in batches of this size. */
const BATCH = 40;

/**
 * How many cards to render: a first batch at once, then one more batch per task until the whole
 * pool is there, so Settings opens at once however large the pool is, and stays responsive.
 */
function useProgressiveCount(total: number): number {
  const [shown, setShown] = useState(BATCH);
  useEffect(() => {
    if (shown >= total) return;
    const timer = setTimeout(() => setShown((n) => n + BATCH), 0);
    return () => clearTimeout(timer);
  }, [shown, total]);
  return Math.min(shown, total);
}

/** The worker pool: add from presets, edit, reorder, test, import and export, and the keys. */
export function PoolEditor() {
  const pool = useStudio((s) => s.pool);
  const size = pool.length;
  const shown = useProgressiveCount(size);
  const [confirming, setConfirming] = useState(false);
  const paper = useMemo(() => (confirming ? paperPool() : []), [confirming]);
  return (
    <section className="pool-editor" data-testid="pool-editor">
      <h3>Workers</h3>
      <p className="muted small">
        The order is the Model id order the Conductor sees; steps keep their worker whatever the
        order. Keys go only to their own worker&apos;s endpoint.
      </p>
      <div className="row wrap pool-toolbar">
        <PresetMenu />
        {confirming ? (
          <span className="row" data-testid="confirm-paper-pool">
            Replace the {size} worker{size === 1 ? "" : "s"} with the paper pool?
            <LosingSteps next={paper} />
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
        {(shown < size ? pool.slice(0, shown) : pool).map((w, i) => (
          <WorkerCard key={w.id} worker={w} index={i} last={i === pool.length - 1} />
        ))}
      </ol>
      <PoolUndoBar />
    </section>
  );
}
