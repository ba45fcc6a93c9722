import { useState } from "react";
import type { Worker } from "../../engine/schema/worker.ts";
import {
  CATALOGUE,
  downloadSizeMB,
  loadModel,
  needsDownload,
} from "../../state/models/inbrowserController.ts";
import { useStudio } from "../../state/slices/store.ts";
import { DownloadConfirm } from "../panels/DownloadConfirm.tsx";
import { LoadProgressBar } from "../panels/LoadProgressBar.tsx";

/**
 * An in-browser worker's state: whether a model is loaded (it runs on the loaded model, in turn
 * with the Conductor), a way to load one without making it the Conductor, and what becomes of
 * its step-by-step prefill (the model cannot continue an assistant message, so it is folded).
 */
export function InBrowserWorkerNote({ worker }: { worker: Worker }) {
  const status = useStudio((s) => s.ibStatus);
  const loadedId = useStudio((s) => s.ibModelId);
  const modelId = useStudio((s) => s.conductor.webllmModelId);
  const probe = useStudio((s) => s.probe);
  const [confirming, setConfirming] = useState(false);
  const label = CATALOGUE.find((m) => m.id === modelId)?.label ?? modelId;
  const start = () => {
    setConfirming(false);
    void loadModel(modelId);
  };
  const ready = status === "ready" && loadedId !== null;
  return (
    <div
      className="browser-status small inbrowser-worker-note"
      data-testid="inbrowser-worker-note"
      data-loaded={ready}
    >
      {ready ? (
        <p>
          <span className="status-works">Runs on {loadedId}</span>
          <span className="muted">
            {" "}
            (loaded in this browser), one generation at a time, in turn with the Conductor when it
            runs in this browser too.
          </span>
        </p>
      ) : status === "loading" ? (
        <LoadProgressBar />
      ) : (
        <p>
          <span className="status-blocked">No in-browser model is loaded</span>
          <span className="muted">: steps on this worker fail until one is.</span>
          {probe && !probe.ok && <span className="muted"> {probe.summary}</span>}
        </p>
      )}
      {!ready && status !== "loading" && probe?.ok && !confirming && (
        <button
          type="button"
          data-testid="inbrowser-worker-load"
          onClick={() => (needsDownload(modelId) ? setConfirming(true) : start())}
        >
          Load {label}
        </button>
      )}
      {confirming && (
        <DownloadConfirm
          sizeMB={downloadSizeMB(modelId)}
          testId="inbrowser-worker-confirm"
          onYes={start}
          onNo={() => setConfirming(false)}
        >
          the browser keeps it. Choose another model in Conductor → In this browser.
        </DownloadConfirm>
      )}
      {worker.prefill && (
        <p className="muted" data-testid="inbrowser-prefill-note">
          Step-by-step prefill: sent as an instruction in the user message, since the in-browser
          model cannot continue an assistant message.
        </p>
      )}
    </div>
  );
}
