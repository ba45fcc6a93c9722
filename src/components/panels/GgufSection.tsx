import { useState } from "react";
import type { GgufStats } from "../../engine/llm/gguf/backend.ts";
import { GGUF_CATALOGUE } from "../../engine/llm/gguf/catalogue.ts";
import {
  cachedGguf,
  cancelGgufLoad,
  deleteGguf,
  lastSpeedProbe,
  loadGgufModel,
  runSpeedTest,
  unloadGguf,
} from "../../state/models/ggufController.ts";
import { isGgufId } from "../../state/models/inbrowserRuntime.ts";
import { useStudio } from "../../state/slices/store.ts";
import { formatMB as mb } from "./DownloadConfirm.tsx";
import { GgufEstimate, sizeText } from "./GgufEstimate.tsx";

type Cached = { name: string; url: string; size: number };

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * GGUF weights run by llama.cpp (wllama) in this browser, on the CPU or WebGPU: from a URL (kept in
 * the browser's storage) or from files on this computer (read in place, never uploaded).
 */
export function GgufSection() {
  const status = useStudio((s) => s.ibStatus);
  const loadedId = useStudio((s) => s.ibModelId);
  const [url, setUrl] = useState(GGUF_CATALOGUE[0]!.url);
  const [progress, setProgress] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [speed, setSpeed] = useState<GgufStats | null>(null);
  const [cached, setCached] = useState<Cached[] | null>(null);
  const [probe, setProbe] = useState(lastSpeedProbe);
  const [dragging, setDragging] = useState(false);
  const ready = status === "ready" && isGgufId(loadedId);
  const entry = GGUF_CATALOGUE.find((m) => m.url === url);

  const load = (source: { url: string } | { files: File[] }) => {
    setError(null);
    setSpeed(null);
    setProgress("Loading…");
    loadGgufModel(source, (loaded, total) =>
      setProgress(`Downloading ${mb(loaded / 1e6)} of ${mb(total / 1e6)}`),
    )
      .then(() => void refresh())
      .catch((e: unknown) => setError(message(e)))
      .finally(() => setProgress(null));
  };
  const refresh = () => cachedGguf().then(setCached, () => setCached([]));
  const test = () => {
    setError(null);
    runSpeedTest().then(
      (s) => {
        setSpeed(s ?? null);
        setProbe(lastSpeedProbe());
      },
      (e: unknown) => setError(message(e)),
    );
  };

  return (
    <div
      className={dragging ? "gguf dropping" : "gguf"}
      data-testid="gguf-section"
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes("Files")) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        if (e.dataTransfer.files.length === 0) return;
        // Read in place like picked files: never uploaded.
        e.preventDefault();
        setDragging(false);
        if (status !== "loading") load({ files: [...e.dataTransfer.files] });
      }}
    >
      <h4>GGUF weights (llama.cpp)</h4>
      <p className="muted small">
        Any GGUF model, such as one converted with llama.cpp&apos;s convert_hf_to_gguf.py: from a
        URL (split files: give the first), or from files on this computer, picked or dropped here
        (split files: all parts together; read in place, never uploaded).
      </p>
      <label className="field">
        Catalogue
        <select
          data-testid="gguf-catalogue"
          value={entry ? url : ""}
          onChange={(e) => setUrl(e.target.value)}
        >
          <option value="">Your own URL</option>
          {GGUF_CATALOGUE.map((m) => (
            <option key={m.id} value={m.url}>
              {m.label} · download {sizeText(m)}
              {m.isDefault ? " · the Conductor's base model" : ""}
            </option>
          ))}
        </select>
      </label>
      {entry && (
        <>
          {!entry.sizeVerified && (
            <p className="muted small" data-testid="gguf-size-note">
              Catalogue sizes are approximate; the download shows the real size as it starts.
            </p>
          )}
          <GgufEstimate entry={entry} probe={probe} />
        </>
      )}
      <label className="field">
        GGUF URL
        <input
          type="url"
          data-testid="gguf-url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://…/model-q4_k_m.gguf"
        />
      </label>
      <div className="row">
        <button
          type="button"
          className="primary"
          data-testid="gguf-load-url"
          disabled={status === "loading" || !url.trim()}
          onClick={() => load({ url: url.trim() })}
        >
          Load from URL{entry ? ` (${sizeText(entry)})` : ""}
        </button>
        <label className="button">
          Load files from disk…
          <input
            type="file"
            accept=".gguf"
            multiple
            hidden
            data-testid="gguf-file"
            onChange={(e) => e.target.files?.length && load({ files: [...e.target.files] })}
          />
        </label>
      </div>
      {progress && (
        <p className="small row" data-testid="gguf-progress">
          {progress}
          <button type="button" onClick={cancelGgufLoad}>
            Cancel
          </button>
        </p>
      )}
      {error && (
        <p className="error-box" data-testid="gguf-error">
          {error}
        </p>
      )}
      {ready && (
        <div className="row">
          <span className="badge badge-done" data-testid="gguf-ready">
            {loadedId} ready
          </span>
          <button type="button" data-testid="gguf-speed" onClick={test}>
            Speed test
          </button>
          <button type="button" onClick={() => void unloadGguf()}>
            Unload
          </button>
        </div>
      )}
      {speed && (
        <p className="small" data-testid="gguf-speed-result">
          Measured on this device: prefill {speed.prefillTokensPerSec.toFixed(1)} tok/s · decode{" "}
          {speed.decodeTokensPerSec.toFixed(1)} tok/s with this model. Each plan records the speed
          it ran at; the catalogue above projects other models from this test.
        </p>
      )}
      <h4>Cached GGUF files</h4>
      {cached === null ? (
        <button type="button" data-testid="gguf-cached-show" onClick={() => void refresh()}>
          Show
        </button>
      ) : cached.length === 0 ? (
        <p className="muted small">
          None yet (files from disk are read in place, not copied here).
        </p>
      ) : (
        <ul className="cached-list" data-testid="gguf-cached">
          {cached.map((c) => (
            <li key={c.name} className="row">
              <span className="ellipsis" title={c.url}>
                {c.url.split("/").pop() ?? c.name}
              </span>
              <span className="muted small">{mb(c.size / 1e6)}</span>
              <button
                type="button"
                className="danger"
                onClick={() => void deleteGguf(c.name).then(refresh)}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
