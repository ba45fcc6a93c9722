import { useState } from "react";
import { presetById } from "../../engine/pool/presets.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { originOf, shareKeyWithOrigin } from "../../state/pool.ts";
import { useStudio } from "../../state/store.ts";

/** A worker's API key (a password field), and handing it to other workers of the same endpoint. */
export function KeyField({ worker }: { worker: Worker }) {
  const key = useStudio((s) => s.keys[worker.id] ?? "");
  const origin = originOf(worker.baseURL);
  const sameOrigin = useStudio(
    (s) =>
      s.pool.filter((w) => w.id !== worker.id && origin !== null && originOf(w.baseURL) === origin)
        .length,
  );
  const [shared, setShared] = useState<number | null>(null);
  return (
    <label className="field">
      API key
      <span className="row">
        <input
          aria-label="API key"
          data-testid="worker-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={
            presetById(worker.provider)?.local
              ? "usually not needed for a local server"
              : "sent only to this base URL"
          }
          value={key}
          onChange={(e) => {
            setShared(null);
            useStudio.getState().setKey(worker.id, e.target.value.trim());
          }}
        />
        {key && sameOrigin > 0 && (
          <button
            type="button"
            data-testid="share-key"
            title={`Use this key for the other workers at ${origin ?? ""}`}
            onClick={() => setShared(shareKeyWithOrigin(worker))}
          >
            Use for {sameOrigin} more
          </button>
        )}
      </span>
      {shared !== null && (
        <span className="small" role="status">
          Key set on {shared} other worker{shared === 1 ? "" : "s"} at {origin}.
        </span>
      )}
    </label>
  );
}
