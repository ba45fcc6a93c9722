// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { runConductor } from "../engine/exec/simple-runs.ts";
import { recordOf } from "../engine/run/record.ts";
import type { Worker } from "../engine/schema/worker.ts";
import { conductorBackend, conductorConfigOf, workerBackend } from "./run/backends.ts";
import { mountFakeWebLLM } from "./fakeWebLLMHook.ts";
import { loadModel, setEngineLoader, unloadModel } from "./models/inbrowserController.ts";
import { useStudio } from "./slices/store.ts";
import { inBrowserWorker } from "../test-support/state/slices/pool-workers.ts";
import { drain } from "../test-support/engine/exec/collect-events.ts";

const PLAN = `Two attempts on this computer, then a check.
model_id = [0, 0, 0]
subtasks = ["Attempt one.", "Attempt two.", "Check both."]
access_list = [[], [], "all"]`;

const local: Worker = inBrowserWorker(64);

afterEach(() => {
  unloadModel();
  setEngineLoader(null);
  delete window.__fakeWebLLM;
});

describe("the ?fake-webllm hook", () => {
  it("loads the scripted engine through the real load path, and the run uses it in turn", async () => {
    const hook = mountFakeWebLLM({
      setEngineLoader,
      loadModel,
      chosenModel: () => useStudio.getState().conductor.webllmModelId,
      chunkDelayMs: 0,
    });
    expect(window.__fakeWebLLM).toBe(hook);
    hook.script([
      { when: "AVAILABLE LANGUAGE MODELS", text: PLAN },
      { when: "Your assigned subtask: Attempt one.", text: "First attempt: 4." },
      { when: "Your assigned subtask: Attempt two.", text: "Second attempt: 4." },
      { when: "Your assigned subtask: Check both.", text: "Both say 4." },
    ]);
    useStudio.getState().setConductor({ backend: "webllm", webllmGrammar: false });
    const id = useStudio.getState().conductor.webllmModelId;
    await hook.load();
    const s = useStudio.getState();
    expect([s.ibStatus, s.ibModelId]).toEqual(["ready", id]);
    expect(hook.loads()).toEqual([id]);

    const backend = conductorBackend(s);
    if (typeof backend === "string") throw new Error(backend);
    expect(workerBackend(s, local)).toBe(backend);
    expect(backend.label).toBe(`${id} (in this browser)`);
    const record = recordOf(
      await drain(
        runConductor({
          question: "What is 2 + 2?",
          pool: [local],
          conductor: conductorConfigOf(s),
          conductorBackend: backend,
          backendFor: (w) => workerBackend(useStudio.getState(), w),
          signal: new AbortController().signal,
          retry: { baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
        }),
      ),
    );
    expect(record.status).toBe("done");
    expect(record.rounds[0]?.steps.map((st) => st.output)).toEqual([
      "First attempt: 4.",
      "Second attempt: 4.",
      "Both say 4.",
    ]);
    expect(hook.requests()).toHaveLength(4);
    expect(hook.maxActive()).toBe(1);
    // WebLLM's speed figures reach the state as after a real generation.
    expect(useStudio.getState().ibStats).toMatchObject({ decodeTokensPerSec: 40 });
  });
});
