import type { StudioState } from "../../state/slices/store.ts";
import { useStudio } from "../../state/slices/store.ts";
import { ExampleButtons } from "../examples/ExampleButtons.tsx";

/** Whether the Conductor can plan: a loaded in-browser model, or a remote endpoint and model. */
const selectConductorReady = (s: StudioState) =>
  s.conductor.backend === "webllm"
    ? s.ibStatus === "ready"
    : s.conductor.baseURL.trim() !== "" && s.conductor.model.trim() !== "";
const selectWorkers = (s: StudioState) => s.pool.length;

/** Opens Settings and brings one of its sections into view once the dialog has loaded. */
function openAt(testId: string) {
  useStudio.getState().openSettings();
  let frames = 0;
  const find = () => {
    const el = document.querySelector(`[data-testid="${testId}"]`);
    if (el) el.scrollIntoView({ block: "start" });
    else if (frames++ < 120) requestAnimationFrame(find);
  };
  requestAnimationFrame(find);
}

/** The empty canvas: what a new user sets up (a Conductor and workers), then how to start. */
export function Welcome() {
  const conductorReady = useStudio(selectConductorReady);
  const workers = useStudio(selectWorkers);
  const ready = conductorReady && workers > 0;
  return (
    <div className="canvas-empty" data-testid="welcome">
      <p>No workflow yet.</p>
      {!ready && (
        <>
          <p>Two things to set up first:</p>
          <ol className="setup-list">
            <li data-testid="setup-conductor" data-done={conductorReady}>
              <strong>A Conductor</strong>, the model that plans the team: in this browser (WebGPU)
              or a remote endpoint. {conductorReady && "✓ set"}
              {!conductorReady && (
                <button type="button" onClick={() => openAt("conductor-settings")}>
                  Set up the Conductor
                </button>
              )}
            </li>
            <li data-testid="setup-workers" data-done={workers > 0}>
              <strong>Workers</strong>, the models that do the steps.{" "}
              {workers > 0 && `✓ ${workers} in the pool`}
              {workers === 0 && (
                <button type="button" onClick={() => openAt("pool-editor")}>
                  Add workers
                </button>
              )}
            </li>
          </ol>
        </>
      )}
      <p>Ask the Conductor to plan one, add a step, or drop an exported run here.</p>
      <ExampleButtons />
    </div>
  );
}
