import { useState } from "react";
import { presetById } from "../../engine/pool/presets.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { originOf, workersByOrigin } from "../../state/slices/keybinding.ts";
import { shareKeyWithOrigin } from "../../state/slices/pool.ts";
import { useStudio } from "../../state/slices/store.ts";
import { KeyMovedNote } from "./KeyMovedNote.tsx";
import { useHeldSecret } from "./useHeldSecret.ts";

/**
 * A worker's API key (a password field), and handing it to other workers of the same endpoint. A
 * key entered for another origin than the worker's base URL now has is not shown or sent: the
 * field asks for a key for the new origin, or for confirmation that the same key applies.
 */
export function KeyField({ worker }: { worker: Worker }) {
  const origin = originOf(worker.baseURL);
  const { state, held, from } = useHeldSecret(worker.id, origin);
  // Typed before the base URL was set: shown, sent nowhere, and bound only once the user confirms.
  const early = state === "moved" && origin === null && from === null;
  const key = state === "bound" || early ? held : "";
  const sameOrigin = useStudio((s) =>
    origin === null ? 0 : (workersByOrigin(s.pool).get(origin) ?? 1) - 1,
  );
  const [shared, setShared] = useState<number | null>(null);
  return (
    <label className="field">
      API key
      <span className="row">
        <input
          aria-label="API key"
          data-testid="worker-key"
          data-key-state={state}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={
            state === "moved"
              ? `enter a key for ${origin ?? "this endpoint"}`
              : presetById(worker.provider)?.local
                ? "usually not needed for a local server"
                : "sent only to this base URL"
          }
          value={key}
          onChange={(e) => {
            setShared(null);
            useStudio.getState().setKey(worker.id, e.target.value.trim(), origin ?? "");
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
      {early ? (
        <span className="muted small" data-testid="key-needs-url">
          Set the base URL: a key is sent only to the endpoint it was entered for.
        </span>
      ) : (
        state === "moved" && <KeyMovedNote id={worker.id} from={from} to={origin} />
      )}
      {shared !== null && (
        <span className="small" role="status">
          Key set on {shared} other worker{shared === 1 ? "" : "s"} at {origin}.
        </span>
      )}
    </label>
  );
}
