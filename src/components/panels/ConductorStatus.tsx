import { isGgufId } from "../../state/models/inbrowserRuntime.ts";
import { CATALOGUE } from "../../state/models/inbrowserController.ts";
import { useStudio } from "../../state/slices/store.ts";
import { LoadProgressBar } from "./LoadProgressBar.tsx";
import { chooseConductor } from "./namedWorkers.ts";
import { ProblemBox } from "./ProblemBox.tsx";

/**
 * Which Conductor plans, in one glance: the in-browser model's state (with the WebGPU verdict and a
 * way out to a remote Conductor when the GPU cannot run it), or the remote endpoint.
 */
export function ConductorStatus() {
  const conductor = useStudio((s) => s.conductor);
  const probe = useStudio((s) => s.probe);
  const status = useStudio((s) => s.ibStatus);
  const problem = useStudio((s) => s.ibProblem);
  const loadedId = useStudio((s) => s.ibModelId);
  const openSettings = useStudio((s) => s.openSettings);
  const useRemote = () => {
    // As the Settings choice does: the worker-names option takes this Conductor's default.
    chooseConductor({ backend: "remote" });
    openSettings();
  };
  if (conductor.backend === "remote") {
    return (
      <section
        className="panel conductor-status"
        data-testid="conductor-status"
        data-backend="remote"
      >
        <div className="row">
          <span className="muted small">Conductor</span>
          <strong className="ellipsis">{conductor.model}</strong>
          <span className="muted small ellipsis">at {conductor.baseURL}</span>
          <button type="button" className="link" onClick={openSettings}>
            Change
          </button>
        </div>
      </section>
    );
  }
  // A GGUF model (llama.cpp) loading or loaded serves in place of the chosen WebLLM one.
  if (loadedId && isGgufId(loadedId) && (status === "ready" || status === "loading"))
    return <GgufStatus name={loadedId.slice("gguf:".length)} ready={status === "ready"} />;
  const model = CATALOGUE.find((m) => m.id === conductor.webllmModelId);
  return (
    <section
      className="panel conductor-status"
      data-testid="conductor-status"
      data-backend="webllm"
    >
      <div className="row">
        <span className="muted small">Conductor in this browser</span>
        <strong className="ellipsis" data-testid="conductor-model">
          {model?.label ?? conductor.webllmModelId}
        </strong>
      </div>
      {!probe && <p className="muted small">Checking WebGPU…</p>}
      {probe && !probe.ok && (
        <div className="error-box" role="alert" data-testid="webgpu-unavailable">
          <p>{probe.summary}</p>
          <button type="button" data-testid="use-remote" onClick={useRemote}>
            Use a remote Conductor
          </button>
        </div>
      )}
      {probe?.ok && (
        <p className="small muted" data-testid="webgpu-summary">
          {probe.summary}
        </p>
      )}
      {probe?.ok &&
        probe.warnings.map((w) => (
          <p key={w} className="warning" data-testid="webgpu-warning">
            {w}
          </p>
        ))}
      {status === "loading" && <LoadProgressBar />}
      {status === "error" && problem && <ProblemBox problem={problem} />}
      {probe?.ok &&
        status !== "loading" &&
        !(status === "ready" && loadedId === conductor.webllmModelId) && (
          <div className="row">
            <button
              type="button"
              className="primary"
              data-testid="load-model"
              onClick={openSettings}
            >
              Load the model…
            </button>
            <button type="button" className="link" onClick={useRemote}>
              or use a remote Conductor
            </button>
          </div>
        )}
      {status === "ready" && loadedId === conductor.webllmModelId && (
        <p className="small" data-testid="model-ready">
          <span className="badge badge-done">ready</span> loaded on{" "}
          {probe?.adapterName || "your GPU"}
        </p>
      )}
    </section>
  );
}

/** The status of a GGUF Conductor: its own name, run by llama.cpp (no WebGPU verdict needed). */
function GgufStatus({ name, ready }: { name: string; ready: boolean }) {
  const openSettings = useStudio((s) => s.openSettings);
  return (
    <section className="panel conductor-status" data-testid="conductor-status" data-backend="gguf">
      <div className="row">
        <span className="muted small">Conductor in this browser</span>
        <strong className="ellipsis" data-testid="conductor-model">
          {name} (GGUF)
        </strong>
        <button type="button" className="link" onClick={openSettings}>
          Change
        </button>
      </div>
      {ready ? (
        <p className="small" data-testid="model-ready">
          <span className="badge badge-done">ready</span> run by llama.cpp in this browser
        </p>
      ) : (
        <p className="small muted">Loading the GGUF model…</p>
      )}
    </section>
  );
}
