import "./zod-config.ts";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./components/App.tsx";
import { bootRuns, bootStudio } from "./state/storage/boot.ts";
import { loadModel, probeNow, setEngineLoader } from "./state/models/inbrowserController.ts";
import { loadRunStore } from "./state/storage/runStore.ts";
import { useStudio } from "./state/slices/store.ts";
import { selectDoc } from "./state/slices/selectors.ts";
import { loadLayout } from "./engine/graph/layout.ts";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
bootStudio();
void probeNow();
// A test hook for the code sandbox (e2e/code-sandbox.spec.ts), loaded only with ?sandbox-test.
if (new URLSearchParams(location.search).has("sandbox-test"))
  void import("./components/eval/SandboxTestHook.tsx").then((m) => m.mountSandboxTestHook());
// A test hook that loads in-browser models as a scripted engine (e2e/inbrowser-worker.spec.ts),
// loaded only with ?fake-webllm.
if (new URLSearchParams(location.search).has("fake-webllm"))
  void import("./state/fakeWebLLMHook.ts").then((m) =>
    m.mountFakeWebLLM({
      setEngineLoader,
      loadModel,
      chosenModel: () => useStudio.getState().conductor.webllmModelId,
    }),
  );
const render = () =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
// The draft and the last open run come back before the first paint, so nothing the user does can
// race them; a storage that does not answer within 2 s does not hold the studio back.
// The run store's code (Dexie) is its own chunk from this origin: it is loaded before the first
// paint so that every run is stored from the start.
// The canvas's layout engine (dagre) is a chunk of its own too, kept out of the first load: it is
// fetched beside the run store and awaited only when there are steps to draw at the first paint.
const layout = loadLayout().catch(() => undefined);
const drawable = () => (selectDoc(useStudio.getState()).steps.length ? layout : undefined);
void loadRunStore()
  .then(() => Promise.race([bootRuns().then(drawable), new Promise((r) => setTimeout(r, 2000))]))
  .finally(render);
