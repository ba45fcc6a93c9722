/**
 * Classifies WebLLM failures. Errors raised in the worker reach the page as strings
 * (`err.toString()`, i.e. "ShaderF16SupportError: This model requires ..."), not Error objects, so
 * classification reads the error's name and text. Each class says what to do next.
 */
import { ErrorCode } from "../../errors.ts";
import { LlmError } from "../types.ts";

/** A WebLLM failure in words for the UI. */
export interface WebLLMProblem {
  code: ErrorCode;
  title: string;
  /** What happened, in plain words. */
  message: string;
  /** What the user can do, most useful first. */
  nextSteps: string[];
  /** The raw error text (first 500 characters), for a details disclosure. */
  detail: string;
}

type Rule = Omit<WebLLMProblem, "detail"> & { test: RegExp };

const REMOTE = "Switch to a remote Conductor (an OpenAI-compatible endpoint) in Settings.";
const SMALLER = "Pick a smaller model (3B, 1.5B or 0.5B) in the model list.";
const BROWSER = "Use a current Chrome or Edge (113 or later) on a computer with a GPU.";

/** First match wins, so specific rules come before broad ones (e.g. device lost before network). */
const RULES: readonly Rule[] = [
  {
    test: /\bAbortError\b|Engine\.unload\(\) is called|Reload\(\) is aborted/,
    code: "aborted",
    title: "Cancelled",
    message: "The model load or generation was cancelled.",
    nextSteps: [],
  },
  {
    test: /ShaderF16SupportError|shader-f16/i,
    code: "no_shader_f16",
    title: "This GPU lacks 16-bit shaders",
    message:
      "This model build uses 16-bit floats on the GPU (shader-f16), which this GPU or browser does not offer.",
    nextSteps: [
      "Choose the q4f32 build of the same model: it needs no shader-f16.",
      BROWSER,
      REMOTE,
    ],
  },
  {
    test: /DeviceLostError|device (was |is )?lost|out of memory|\bOOM\b|GPUOutOfMemoryError|Failed to allocate/i,
    code: "gpu_device_lost",
    title: "The GPU ran out of memory",
    message:
      "The GPU was lost while running the model, which usually means it ran out of memory (or the driver reset it).",
    nextSteps: [
      SMALLER,
      "Close other tabs and programs that use the GPU, then load the model again.",
      "Use a shorter context: fewer steps, shorter questions and answers.",
      REMOTE,
    ],
  },
  {
    test: /WebGPUNotAvailableError|WebGPUNotFoundError|WebGPU is not supported|Cannot find WebGPU/i,
    code: "webgpu_unavailable",
    title: "WebGPU is not available",
    message: "This browser does not offer WebGPU, which the in-browser model needs.",
    nextSteps: [BROWSER, "Check that WebGPU and hardware acceleration are enabled.", REMOTE],
  },
  {
    test: /Unable to find a compatible GPU/i,
    code: "no_gpu_adapter",
    title: "No compatible GPU",
    message: "WebGPU is present but found no GPU it can use.",
    nextSteps: [
      "Turn on hardware acceleration in the browser settings and update the graphics driver.",
      BROWSER,
      REMOTE,
    ],
  },
  {
    test: /Cannot initialize runtime because of requested|FeatureSupportError|requires feature/i,
    code: "gpu_unsupported",
    title: "This GPU's WebGPU limits are too low",
    message: "The GPU does not offer a limit or feature the model library needs.",
    nextSteps: [SMALLER, "Try another browser, or update it.", REMOTE],
  },
  {
    test: /ContextWindowSizeExceededError|exceed context window size|EmbeddingExceedContextWindowSizeError/i,
    code: "context_length",
    title: "The prompt is too long for the model",
    message:
      "The prompt has more tokens than the model's context window (4,096 tokens by default).",
    nextSteps: [
      "Shorten the question, or give steps fewer earlier steps to read (narrower access lists).",
      "Lower max tokens, or use fewer steps.",
      REMOTE,
    ],
  },
  {
    test: /QuotaExceededError|quota/i,
    code: "storage_quota",
    title: "Not enough storage for the model",
    message:
      "The browser refused to store more model files: its storage quota for this site is used up.",
    nextSteps: [
      "Delete cached models you no longer need (Cached models), then try again.",
      "Allow persistent storage for this site when asked, and free disk space.",
      "Leave private or incognito mode, which allows very little storage.",
      SMALLER,
    ],
  },
  {
    test: /IntegrityError|Integrity verification failed/,
    code: "model_download",
    title: "A downloaded model file is damaged",
    message: "A model file did not match its expected checksum.",
    nextSteps: ["Delete this model from the cache and download it again.", REMOTE],
  },
  {
    test: /Failed to fetch|NetworkError|Load failed|network error|Request failed|Cannot fetch|fetch failed|ERR_[A-Z_]+|ECONNREFUSED|status(?: code)? [45]\d\d/i,
    code: "model_download",
    title: "The model could not be downloaded",
    message:
      "A model file could not be fetched: the connection failed, or the server refused or lacks the file.",
    nextSteps: [
      "Check the connection and try again: files already downloaded are kept.",
      "For a custom model, check the weights URL and the model library URL, and that their servers allow cross-origin requests (CORS).",
      REMOTE,
    ],
  },
  {
    test: /CompileError|LinkError|WebAssembly|expected magic word|MissingModelError|Missing `model_lib`|Cannot find global function|Asynctify/i,
    code: "model_lib",
    title: "The model library could not be loaded",
    message:
      "The model library (a WebAssembly file compiled for WebGPU) is invalid, missing, or does not match these weights or this WebLLM version.",
    nextSteps: [
      "For a custom model, leave the model library empty to use the prebuilt Qwen2-7B library of the same quantisation.",
      "Before retrying a corrected library at the same URL, delete this model under Cached models: the browser keeps the library it downloaded.",
      "Make sure a custom library was compiled for WebLLM 0.2.86 (model libraries v0_2_86) and the weights' quantisation.",
      REMOTE,
    ],
  },
  {
    test: /ArtifactManifestError|UnsupportedTokenizerFilesError|SyntaxError|Unexpected token|is not valid JSON/i,
    code: "model_files",
    title: "The model files are not valid",
    message: "The weights folder does not hold a complete MLC conversion that WebLLM can read.",
    nextSteps: [
      "Check that the weights URL points to the folder with mlc-chat-config.json, tensor-cache.json, the params shards and tokenizer.json.",
      "Convert the weights again with mlc_llm convert_weight and gen_config.",
      REMOTE,
    ],
  },
  {
    test: /ModelNotFoundError|Cannot find model record/i,
    code: "model_unknown",
    title: "Unknown model",
    message: "WebLLM has no record for this model id.",
    nextSteps: ["Pick a model from the catalogue, or add a custom model record with this id."],
  },
  {
    test: /ModelNotLoadedError|EngineNotLoadedError|not loaded with a model|Model not loaded/i,
    code: "model_not_loaded",
    title: "The model is not loaded",
    message: "The in-browser model was unloaded or never finished loading.",
    nextSteps: ["Load the model again.", REMOTE],
  },
  {
    test: /MessageOrderError|SystemMessageOrderError|UnsupportedRoleError|ContentTypeError/,
    code: "bad_request",
    title: "The request did not suit WebLLM",
    message:
      "WebLLM only accepts messages that end with a user message, with any system message first.",
    nextSteps: ["This is a bug in the studio; please report it with the details below."],
  },
];

/** The text of anything thrown: "Name: message" for errors, the string itself for worker strings. */
export function errorText(e: unknown): string {
  if (typeof e === "string") return e;
  if (e instanceof Error) {
    const name = e.name && e.name !== "Error" ? `${e.name}: ` : "";
    return `${name}${e.message}`;
  }
  if (typeof e === "object" && e !== null && "message" in e && typeof e.message === "string") {
    const name = "name" in e && typeof e.name === "string" ? `${e.name}: ` : "";
    return `${name}${e.message}`;
  }
  return String(e);
}

/** Classifies a WebLLM error (a worker's string, an Error or a DOMException). */
export function classifyWebLLMError(e: unknown): WebLLMProblem {
  const text = errorText(e);
  const detail = text.length > 500 ? `${text.slice(0, 500)}…` : text;
  const rule = RULES.find((r) => r.test.test(text));
  if (!rule) {
    return {
      code: "unknown",
      title: "The in-browser model failed",
      message: "WebLLM reported an error the studio does not recognise.",
      nextSteps: ["Reload the page and load the model again.", SMALLER, REMOTE],
      detail,
    };
  }
  const { test: _test, ...problem } = rule;
  return { ...problem, nextSteps: [...problem.nextSteps], detail };
}

/** A coded `LlmError` for anything WebLLM threw; an aborted signal always reads as `aborted`. */
export function toWebLLMError(e: unknown, signal?: AbortSignal): LlmError {
  if (signal?.aborted) return new LlmError("aborted");
  if (e instanceof LlmError) return e;
  const problem = classifyWebLLMError(e);
  if (problem.code === ErrorCode.aborted) return new LlmError("aborted");
  return new LlmError(problem.code, problem.detail);
}
