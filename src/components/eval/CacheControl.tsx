import { useEffect, useState } from "react";
import type { CacheMode } from "../../engine/llm/cache.ts";
import { CacheModeSchema } from "../../engine/llm/cache.ts";
import { useStudio } from "../../state/slices/store.ts";
import { cacheSizeText, clearCache } from "../../state/eval/studioCache.ts";

const MODE_TEXT: Record<CacheMode, string> = {
  "read-write": "read-write: answer from it, store new answers",
  "read-only": "read-only: answer from it, store nothing",
  refresh: "refresh: call again, replace what is stored",
};

/**
 * The response cache in the Evaluate setup: on or off, its mode, its size, and Clear (which asks
 * first). Identical calls of a later evaluation are answered from it at no cost.
 */
export function CacheControl() {
  const on = useStudio((s) => s.evalSetup.cache);
  const mode = useStudio((s) => s.evalSetup.cacheMode);
  const patchSetup = useStudio((s) => s.patchEvalSetup);
  // The size changes when an evaluation ends, so it is read again on every phase.
  const phase = useStudio((s) => s.evalPhase);
  const [size, setSize] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [cleared, setCleared] = useState(0);
  useEffect(() => {
    let live = true;
    void cacheSizeText().then((text) => live && setSize(text));
    return () => {
      live = false;
    };
  }, [phase, cleared]);
  const clear = async () => {
    setProblem(await clearCache());
    setAsking(false);
    setCleared((n) => n + 1);
  };
  return (
    <div className="eval-cache" data-testid="eval-cache-control">
      <div className="row wrap">
        <label
          className="chip"
          title="Identical calls (endpoint, model, messages, parameters) are answered from the browser's cache at no cost"
        >
          <input
            type="checkbox"
            data-testid="eval-cache"
            checked={on}
            onChange={(e) => patchSetup({ cache: e.target.checked })}
          />
          Response cache
        </label>
        <label className="eval-cache-mode">
          Mode
          <select
            data-testid="eval-cache-mode"
            value={mode}
            disabled={!on}
            onChange={(e) => patchSetup({ cacheMode: CacheModeSchema.parse(e.target.value) })}
          >
            {CacheModeSchema.options.map((m) => (
              <option key={m} value={m}>
                {MODE_TEXT[m]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted">
        A call with the same endpoint, model, messages and settings as a stored one is answered from
        this browser, at no cost. Single runs in the studio are never cached.
      </p>
      <div className="row">
        <span className="muted" data-testid="eval-cache-size">
          {size === null ? "…" : `Stored: ${size}`}
        </span>
        <button
          type="button"
          data-testid="eval-cache-clear"
          disabled={size === "empty" || asking}
          onClick={() => setAsking(true)}
        >
          Clear…
        </button>
      </div>
      {asking && (
        <div
          className="eval-cache-confirm"
          role="alertdialog"
          aria-label="Clear the response cache?"
          data-testid="eval-cache-confirm"
        >
          <p>
            Delete every stored answer ({size})? Evaluations after this call the providers again,
            and pay for it. Runs and evaluations are kept.
          </p>
          <div className="row">
            <button
              type="button"
              className="danger"
              data-testid="eval-cache-clear-yes"
              onClick={() => void clear()}
            >
              Clear the cache
            </button>
            <button
              type="button"
              data-testid="eval-cache-clear-no"
              onClick={() => setAsking(false)}
            >
              Keep it
            </button>
          </div>
        </div>
      )}
      {problem && (
        <p className="problem" role="alert" data-testid="eval-cache-problem">
          {problem}
        </p>
      )}
    </div>
  );
}
