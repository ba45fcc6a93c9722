import { useSyncExternalStore } from "react";
import type { Sandbox, SandboxStatus } from "../../engine/eval/code/pool.ts";

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** The sandbox's status, re-rendering on every change. */
export function useSandboxStatus(sandbox: Sandbox): SandboxStatus {
  return useSyncExternalStore(sandbox.subscribe, sandbox.status, sandbox.status);
}

interface Props {
  sandbox: Sandbox;
  /** The runtime's download size (PYODIDE_ASSETS.totalBytes), shown before it is fetched. */
  sizeBytes: number;
  version: string;
}

/**
 * A small note on the Python runtime that code scoring needs: its size before the first download,
 * a progress bar while it downloads (once; later starts come from the browser cache), then ready.
 */
export function CodeRuntimeNote({ sandbox, sizeBytes, version }: Props) {
  const s = useSandboxStatus(sandbox);
  const name = `Python runtime (Pyodide ${version})`;
  if (s.phase === "failed")
    return (
      <div className="small" role="alert" data-testid="code-runtime-note" data-phase={s.phase}>
        {name} failed to load: {s.message}
      </div>
    );
  if (s.phase === "loading") {
    const total = s.total || sizeBytes;
    const percent = total ? Math.min(100, Math.round((s.loaded / total) * 100)) : 0;
    const text =
      s.starts > 1
        ? "Starting a fresh Python interpreter…"
        : `Downloading the ${name}… ${mb(s.loaded)} of ${mb(total)}`;
    return (
      <div className="load-progress" data-testid="code-runtime-note" data-phase={s.phase}>
        <div
          className="progress-track"
          role="progressbar"
          aria-label="Python runtime download"
          aria-valuenow={percent}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div className="progress-fill" style={{ width: `${percent}%` }} />
        </div>
        <span className="muted small">{text}</span>
      </div>
    );
  }
  const text =
    s.phase === "ready"
      ? `${name} ready${s.lastLoadMs === null ? "" : ` (started in ${(s.lastLoadMs / 1000).toFixed(1)} s)`}.`
      : `${name}: ${mb(sizeBytes)}, downloaded once when the first code answer is scored.`;
  return (
    <div className="muted small" data-testid="code-runtime-note" data-phase={s.phase}>
      {text}
    </div>
  );
}
