import { afterEach, describe, expect, it } from "vitest";
import { WORKER_PREFILL } from "../../engine/exec/messages.ts";
import { runConductor } from "../../engine/exec/simple-runs.ts";
import type { SmallChatRequest, SmallChunk, SmallEngine } from "../../engine/llm/webllm/backend.ts";
import { createWebLLMBackend } from "../../engine/llm/webllm/backend.ts";
import { recordOf } from "../../engine/run/record.ts";
import { ConductorConfigSchema } from "../../engine/schema/worker.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { LOAD_IN_BROWSER_MODEL, setInBrowserBackend, workerBackend } from "./backends.ts";
import { useStudio } from "../slices/store.ts";
import { drain } from "../../test-support/engine/exec/collect-events.ts";

const PLAN = `Two independent attempts.
model_id = [0, 1]
subtasks = ["Attempt one.", "Attempt two."]
access_list = [[], []]`;

/** A fake of WebLLM's small engine: the Conductor's plan first, then one answer per call. */
function fakeEngine() {
  const calls: SmallChatRequest[] = [];
  const state = { active: 0, maxActive: 0 };
  const engine: SmallEngine = {
    chat: {
      completions: {
        create(request) {
          calls.push(request);
          const text = calls.length === 1 ? PLAN : `in-browser answer ${calls.length - 1}`;
          async function* gen(): AsyncGenerator<SmallChunk> {
            state.active += 1;
            state.maxActive = Math.max(state.maxActive, state.active);
            try {
              for (const piece of text.match(/.{1,8}/gs) ?? []) {
                await Promise.resolve();
                yield { choices: [{ delta: { content: piece } }] };
              }
              yield { choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } };
            } finally {
              state.active -= 1;
            }
          }
          return Promise.resolve(gen());
        },
      },
    },
    interruptGenerate: () => undefined,
    reload: () => Promise.resolve(),
    unload: () => Promise.resolve(),
  };
  return { engine, calls, state };
}

const inBrowser = (id: string): Worker => ({
  id,
  name: `Local ${id}`,
  kind: "webllm",
  baseURL: "",
  model: "Qwen2.5-1.5B-Instruct-q4f32_1-MLC",
  temperature: 0.2,
  maxTokens: 64,
  prefill: false,
});

function run(
  conductorBackend: ReturnType<typeof createWebLLMBackend>,
  pool = [inBrowser("a"), inBrowser("b")],
) {
  return drain(
    runConductor({
      question: "What is 2 + 2?",
      pool,
      conductor: ConductorConfigSchema.parse({ kind: "webllm", model: "m" }),
      conductorBackend,
      backendFor: (w) => workerBackend(useStudio.getState(), w),
      signal: new AbortController().signal,
      retry: { baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
    }),
  );
}

afterEach(() => setInBrowserBackend(null));

describe("in-browser workers", () => {
  it("run on the loaded model, one generation at a time with the Conductor", async () => {
    const { engine, calls, state } = fakeEngine();
    const backend = createWebLLMBackend(engine, { modelId: "m" });
    setInBrowserBackend(backend);
    const record = recordOf(await run(backend));
    expect(record.status).toBe("done");
    expect(record.rounds[0]?.steps.map((s) => s.output).sort()).toEqual([
      "in-browser answer 1",
      "in-browser answer 2",
    ]);
    // The plan and both (independent, so concurrent) steps went to the one engine, in turn.
    expect(calls).toHaveLength(3);
    expect(state.maxActive).toBe(1);
  });

  it("fail with what to load when no model is loaded", async () => {
    const { engine } = fakeEngine();
    // The Conductor runs remotely here (a backend of its own); the workers need the browser's.
    const record = recordOf(await run(createWebLLMBackend(engine, { modelId: "m" })));
    const steps = record.rounds[0]?.steps ?? [];
    expect(steps.map((s) => s.status)).toEqual(["failed", "failed"]);
    expect(steps[0]?.error).toEqual({
      code: "model_not_loaded",
      message: `The in-browser model is not loaded yet. ${LOAD_IN_BROWSER_MODEL}`,
    });
  });

  it("fold a worker's step-by-step prefill into the user message, which the model can take", async () => {
    const { engine, calls } = fakeEngine();
    const backend = createWebLLMBackend(engine, { modelId: "m" });
    setInBrowserBackend(backend);
    // A stale `prefill: true` (an imported pool): the WebLLM backend refuses a trailing assistant
    // message, so sent as one it would fail both steps.
    const record = recordOf(
      await run(backend, [
        { ...inBrowser("a"), prefill: true },
        { ...inBrowser("b"), prefill: true },
      ]),
    );
    expect(record.rounds[0]?.steps.map((s) => s.status)).toEqual(["done", "done"]);
    for (const call of calls.slice(1)) {
      expect(call.messages.map((m) => m.role)).toEqual(["user"]);
      expect(call.messages[0]?.content).toMatch(
        new RegExp(`\n\nBegin your reply with this sentence: "${WORKER_PREFILL}"$`),
      );
    }
    // The run record shows what was sent.
    const sent = record.rounds[0]?.steps[0]?.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(["user"]);
  });
});
