// The chat backends of the studio's runs: the Conductor's and each worker's.
import type { OpenAIBackendOptions } from "../../engine/llm/openai.ts";
import type { ChatBackend } from "../../engine/llm/types.ts";
import { LlmError } from "../../engine/llm/types.ts";
import type { ErrorCode } from "../../engine/errors.ts";
import type { ConductorConfig, Worker } from "../../engine/schema/worker.ts";
import {
  CONDUCTOR_KEY_ID,
  boundKey,
  credentialsFor,
  movedSecretMessage,
  originOf,
} from "../slices/keybinding.ts";
import { planGrammarOf } from "../slices/settings.ts";
import type { StudioState } from "../slices/store.ts";

let inBrowser: ChatBackend | null = null;

/**
 * Registers the in-browser (WebLLM) backend once the user has loaded a model; it serves the
 * Conductor and in-browser workers alike, one generation at a time.
 */
export function setInBrowserBackend(backend: ChatBackend | null): void {
  inBrowser = backend;
}

/**
 * An OpenAI-compatible backend whose client (the `openai` package) loads with the first call, not
 * with the page: the first paint does not need it.
 */
function createOpenAIBackend(options: OpenAIBackendOptions): ChatBackend {
  let real: Promise<ChatBackend> | null = null;
  let host = options.baseURL;
  try {
    host = new URL(options.baseURL).host;
  } catch {
    // Not a URL: the label shows it as typed.
  }
  return {
    label: options.label ?? `${options.model} @ ${host}`,
    continuesAssistant: options.continuesAssistant ?? false,
    async *stream(request, signal) {
      real ??= import("../../engine/llm/openai.ts").then((m) => m.createOpenAIBackend(options));
      yield* (await real).stream(request, signal);
    },
  };
}

/** What a step on an in-browser worker says when no model is loaded. */
export const LOAD_IN_BROWSER_MODEL =
  "Load one in Settings (Load on the in-browser worker, or Conductor → In this browser), then run this step again.";

/** A backend whose every call fails with `message`: a step shows it as its error. */
function unavailable(label: string, message: string, code: ErrorCode = "unknown"): ChatBackend {
  return {
    label,
    continuesAssistant: false,
    stream() {
      return {
        [Symbol.asyncIterator]: () => ({
          next: () => Promise.reject(new LlmError(code, message)),
        }),
      };
    },
  };
}

/**
 * The Conductor's settings as the run record keeps them (no key). A remote Conductor's price goes
 * with them, so its plans are costed; the in-browser one is free and carries none.
 */
export function conductorConfigOf(s: StudioState): ConductorConfig {
  const c = s.conductor;
  // A GGUF model (ggufController.ts) serves in place of the chosen WebLLM one while loaded.
  const gguf = s.ibStatus === "ready" && s.ibModelId?.startsWith("gguf:") ? s.ibModelId : null;
  return c.backend === "webllm"
    ? {
        kind: "webllm",
        baseURL: "",
        model: gguf ?? c.webllmModelId,
        temperature: c.temperature,
        maxTokens: c.maxTokens,
        planGrammar: planGrammarOf(c),
        ...(s.ibStats
          ? {
              speed: {
                prefillTokensPerSec: s.ibStats.prefillTokensPerSec,
                decodeTokensPerSec: s.ibStats.decodeTokensPerSec,
              },
            }
          : {}),
      }
    : {
        kind: "openai",
        baseURL: c.baseURL,
        model: c.model,
        temperature: c.temperature,
        maxTokens: c.maxTokens,
        planGrammar: planGrammarOf(c),
        ...(c.price ? { price: c.price } : {}),
      };
}

/** The Conductor's backend, or a message saying what to set up first. */
export function conductorBackend(s: StudioState): ChatBackend | string {
  const c = s.conductor;
  if (c.backend === "webllm") {
    return (
      inBrowser ??
      "Load the in-browser Conductor model first (Settings → Conductor), or switch to a remote Conductor."
    );
  }
  if (!c.baseURL.trim() || !c.model.trim())
    return "Set the Conductor's endpoint (base URL and model) in Settings, or load the in-browser Conductor.";
  const moved = movedSecretMessage(s, CONDUCTOR_KEY_ID, "The Conductor");
  if (moved) return moved;
  return createOpenAIBackend({
    baseURL: c.baseURL,
    model: c.model,
    apiKey: boundKey(s, CONDUCTOR_KEY_ID),
  });
}

/**
 * The backend serving one worker. Its key and secret headers go only to the origin they were
 * entered for; while one of them was entered for another origin, the worker is not called at all.
 */
export function workerBackend(s: StudioState, worker: Worker): ChatBackend {
  switch (worker.kind) {
    case "openai": {
      const moved = movedSecretMessage(s, worker.id, worker.name, originOf(worker.baseURL));
      if (moved) return unavailable(worker.name, moved);
      const { apiKey, headers } = credentialsFor(s, worker);
      return createOpenAIBackend({
        baseURL: worker.baseURL,
        model: worker.model,
        apiKey,
        headers,
      });
    }
    case "webllm":
      // The loaded model serves in-browser workers and the Conductor through one backend, whose
      // queue runs one generation at a time.
      return inBrowser ?? unavailable(worker.name, LOAD_IN_BROWSER_MODEL, "model_not_loaded");
    case "conductor":
      // The runner serves self-selected steps with the Conductor's own backend
      // (docs/protocol.md §1.6).
      return unavailable(
        worker.name,
        "The Conductor as a worker runs only inside a run (self-selection).",
      );
  }
}
