import { chooseConductor } from "./namedWorkers.ts";
import { useState } from "react";
import {
  CATALOGUE,
  deleteModel,
  downloadSizeMB,
  loadModel,
  needsDownload,
  unloadModel,
} from "../../state/models/inbrowserController.ts";
import { vramAtContext } from "../../engine/llm/webllm/catalogue.ts";
import { useStudio } from "../../state/slices/store.ts";
import { CustomModelForm } from "./CustomModelForm.tsx";
import { DownloadConfirm, formatMB as mb } from "./DownloadConfirm.tsx";
import { GgufSection } from "./GgufSection.tsx";
import { InBrowserPlanOptions } from "./InBrowserPlanOptions.tsx";
import { LoadProgressBar } from "./LoadProgressBar.tsx";
import { ProblemBox } from "./ProblemBox.tsx";

/** Choose, download, load and manage the in-browser Conductor model. */
export function InBrowserSection() {
  const probe = useStudio((s) => s.probe);
  const modelId = useStudio((s) => s.conductor.webllmModelId);
  const status = useStudio((s) => s.ibStatus);
  const loadedId = useStudio((s) => s.ibModelId);
  const problem = useStudio((s) => s.ibProblem);
  const cached = useStudio((s) => s.cachedModels);
  const custom = useStudio((s) => s.customRecords);
  const persistence = useStudio((s) => s.persistence);
  const [confirming, setConfirming] = useState(false);
  const size = downloadSizeMB(modelId);
  const start = () => {
    setConfirming(false);
    void loadModel(modelId);
  };
  return (
    <div className="in-browser" data-testid="in-browser-section">
      {probe && (
        <p
          id="probe-summary"
          className={probe.ok ? "small" : "error-box"}
          data-testid="probe-summary"
        >
          {probe.summary}
        </p>
      )}
      {probe?.warnings.map((w) => (
        <p key={w} className="warning">
          {w}
        </p>
      ))}
      <label className="field">
        Model
        <select
          data-testid="webllm-model"
          value={modelId}
          disabled={status === "loading"}
          onChange={(e) => chooseConductor({ webllmModelId: e.target.value })}
        >
          {CATALOGUE.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label} · download {mb(m.downloadMB)} · GPU memory{" "}
              {mb(vramAtContext(m, m.defaultContextWindow))}
              {m.defaultContextWindow > m.contextWindow
                ? ` (${m.defaultContextWindow / 1024}k context: +${mb(vramAtContext(m, m.defaultContextWindow) - m.vramMB)})`
                : ""}
              {m.isDefault ? " · the Conductor's base model" : ""}
            </option>
          ))}
          {custom.map((r) => (
            <option key={r.model_id} value={r.model_id}>
              {r.model_id} (your conversion)
            </option>
          ))}
        </select>
      </label>
      <InBrowserPlanOptions />
      {probe?.ok && !probe.f16 && modelId.includes("q4f16") && (
        <p className="warning">This GPU lacks shader-f16: choose a q4f32 build.</p>
      )}
      {status === "loading" ? (
        <LoadProgressBar />
      ) : confirming ? (
        <DownloadConfirm
          sizeMB={size}
          testId="confirm-download"
          yesTestId="confirm-download-yes"
          onYes={start}
          onNo={() => setConfirming(false)}
        >
          the browser keeps it for next time. The studio will ask the browser to keep it under
          storage pressure.
        </DownloadConfirm>
      ) : (
        <div className="row">
          <button
            type="button"
            className="primary"
            data-testid="webllm-load"
            disabled={!probe?.ok}
            aria-describedby={probe?.ok ? undefined : probe ? "probe-summary" : "load-why"}
            onClick={() => (needsDownload(modelId) ? setConfirming(true) : start())}
          >
            {status === "ready" && loadedId === modelId ? "Reload" : "Load model"}
          </button>
          {!probe?.ok && (
            <span id="load-why" className="muted small" data-testid="load-disabled-reason">
              {probe
                ? "Nothing can load here: the in-browser model needs WebGPU (see above)."
                : "Checking WebGPU…"}
            </span>
          )}
          {status === "ready" && (
            <button type="button" onClick={() => unloadModel()}>
              Unload (free GPU memory)
            </button>
          )}
          {status === "ready" && loadedId && (
            <span className="badge badge-done">{loadedId} ready</span>
          )}
        </div>
      )}
      {persistence && !persistence.persisted && (
        <p className="muted small">
          The browser did not grant persistent storage: it may evict the model if space runs low.
        </p>
      )}
      {status === "error" && problem && <ProblemBox problem={problem} />}
      <h4>Cached models</h4>
      {cached.length === 0 ? (
        <p className="muted small">None yet.</p>
      ) : (
        <ul className="cached-list" data-testid="cached-models">
          {cached.map((m) => (
            <li key={m.id} className="row">
              <span className="ellipsis">{m.id}</span>
              <span className="muted small">
                {mb(m.sizeMB)}
                {m.complete ? "" : " (partial)"}
              </span>
              <button type="button" className="danger" onClick={() => void deleteModel(m.id)}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <CustomModelForm />
      <GgufSection />
    </div>
  );
}
