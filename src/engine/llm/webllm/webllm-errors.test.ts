import { describe, expect, it } from "vitest";
import type { ErrorCode } from "../../errors.ts";
import { ERROR_MESSAGES } from "../../errors.ts";
import { LlmError } from "../types.ts";
import { classifyWebLLMError, errorText, toWebLLMError } from "./webllm-errors.ts";

// The worker posts `err.toString()`, i.e. "<name>: <message>"; the messages are WebLLM 0.2.86's.
const CASES: [string, ErrorCode][] = [
  [
    "DeviceLostError: The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM). To resolve this, try reloading with a model that has fewer parameters or uses a smaller context length.",
    "gpu_device_lost",
  ],
  [
    "Error: Device was lost. This can happen due to insufficient memory or other GPU constraints.",
    "gpu_device_lost",
  ],
  [
    "OperationError: Failed to allocate a buffer of 2147483648 bytes: out of memory",
    "gpu_device_lost",
  ],
  [
    'ShaderF16SupportError: This model requires WebGPU extension shader-f16, which is not enabled in this browser. You can try to launch Chrome Canary in command line with flag "--enable-dawn-features=allow_unsafe_apis".',
    "no_shader_f16",
  ],
  [
    "WebGPUNotAvailableError: WebGPU is not supported in your current environment, but it is necessary to run the WebLLM engine. Please make sure that your browser supports WebGPU and that it is enabled in your browser settings. You can also consult your browser's compatibility chart to see if it supports WebGPU. For more information about WebGPU support in your browser, visit https://webgpureport.org/",
    "webgpu_unavailable",
  ],
  ["WebGPUNotFoundError: Cannot find WebGPU in the environment", "webgpu_unavailable"],
  [
    "Error: Unable to find a compatible GPU. This issue might be because your computer doesn't have a GPU, or your system settings are not configured properly. Please check if your device has a GPU properly set up and if your your browser supports WebGPU. You can also consult your browser's compatibility chart to see if it supports WebGPU. For more information about WebGPU support in your browser, visit https://webgpureport.org/",
    "no_gpu_adapter",
  ],
  [
    "Error: Cannot initialize runtime because of requested maxStorageBufferBindingSize exceeds limit. requested=128MB, limit=64MB. ",
    "gpu_unsupported",
  ],
  [
    "FeatureSupportError: This model requires feature subgroups, which is not yet supported by this browser.",
    "gpu_unsupported",
  ],
  [
    "ContextWindowSizeExceededError: Prompt tokens exceed context window size: number of prompt tokens: 5012; context window size: 4096\nConsider shortening the prompt, or increase `context_window_size`, or using sliding window via `sliding_window_size`.",
    "context_length",
  ],
  ["QuotaExceededError: Failed to execute 'add' on 'Cache': Quota exceeded.", "storage_quota"],
  ["QuotaExceededError: The quota has been exceeded.", "storage_quota"],
  ["TypeError: Failed to fetch", "model_download"],
  ["TypeError: NetworkError when attempting to fetch resource.", "model_download"],
  ["TypeError: Load failed", "model_download"],
  ["TypeError: Failed to execute 'add' on 'Cache': Request failed", "model_download"],
  [
    "Error: Cannot fetch https://huggingface.co/mlc-ai/Qwen2.5-7B-Instruct-q4f16_1-MLC/resolve/main/params_shard_3.bin err= TypeError: Failed to fetch",
    "model_download",
  ],
  [
    "Error: Cannot fetch https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/v0_2_86/base/Qwen2-7B-Instruct-q4f16_1_cs1k-webgpu.wasm",
    "model_download",
  ],
  [
    "IntegrityError: Integrity verification failed for https://x/params_shard_0.bin\n  Expected: sha256-abc\n  Actual: sha256-def\nThis may indicate file corruption or tampering.",
    "model_download",
  ],
  [
    "CompileError: WebAssembly.instantiate(): expected magic word 00 61 73 6d, found 3c 21 64 6f @+0",
    "model_lib",
  ],
  [
    'LinkError: WebAssembly.Instance(): Import #0 "env" "foo": function import requires a callable',
    "model_lib",
  ],
  [
    'MissingModelError: Missing `model_lib` for the model with ID "Conductor-7B-q4f16_1-MLC". Please ensure that `model_lib` is provided in `model_list` for each model. This URL is essential for downloading the WASM library necessary to run the model.',
    "model_lib",
  ],
  ["Error: Cannot find global function vm.builtin.paged_attention_kv_cache_create", "model_lib"],
  ["SyntaxError: Unexpected token '<', \"<!doctype \"... is not valid JSON", "model_files"],
  ["ArtifactManifestError: records[0].dataPath: expected a string", "model_files"],
  ["UnsupportedTokenizerFilesError: Cannot handle tokenizer files vocab.txt", "model_files"],
  [
    "ModelNotFoundError: Cannot find model record in appConfig for Conductor-7B-q4f16_1-MLC. Please check if the model ID is correct and included in the model_list configuration.",
    "model_unknown",
  ],
  [
    "WorkerEngineModelNotLoadedError: WebWorkerMLCEngine is not loaded with a model. Did you call `engine.reload()`?",
    "model_not_loaded",
  ],
  [
    "ModelNotLoadedError: Model not loaded before trying to complete ChatCompletionRequest. Please ensure you have called `MLCEngine.reload(model)` to load the model before initiating APIs, or initialize your engine using CreateMLCEngine() with a valid model configuration.",
    "model_not_loaded",
  ],
  ["MessageOrderError: Last message should be from either `user` or `tool`.", "bad_request"],
  [
    "SystemMessageOrderError: System prompt should always be the first message in `messages`.",
    "bad_request",
  ],
  ["AbortError: The user aborted a request.", "aborted"],
  ["Engine.unload() is called.", "aborted"],
  ["Something nobody has seen before", "unknown"],
];

describe("classifyWebLLMError", () => {
  it.each(CASES)("%s -> %s", (text, code) => {
    const problem = classifyWebLLMError(text);
    expect(problem.code).toBe(code);
    expect(problem.title.length).toBeGreaterThan(5);
    expect(problem.message.length).toBeGreaterThan(20);
    expect(problem.detail).toBe(text);
    if (code !== "aborted") expect(problem.nextSteps.length).toBeGreaterThan(0);
  });

  it("offers the remote Conductor, a smaller model, a shorter context or another browser where they help", () => {
    const steps = (text: string) => classifyWebLLMError(text).nextSteps.join(" ");
    expect(steps(CASES[0]![0])).toMatch(/smaller model.*shorter context.*remote Conductor/s);
    expect(steps(CASES[3]![0])).toMatch(/q4f32 build.*Chrome or Edge/s);
    expect(steps(CASES[4]![0])).toMatch(/Chrome or Edge.*remote Conductor/s);
    expect(steps(CASES[9]![0])).toMatch(/Shorten the question/);
  });

  it("reads Error objects and DOMExceptions like worker strings", () => {
    const dom = new DOMException("Quota exceeded.", "QuotaExceededError");
    expect(errorText(dom)).toBe("QuotaExceededError: Quota exceeded.");
    expect(classifyWebLLMError(dom).code).toBe("storage_quota");
    expect(errorText(new TypeError("Failed to fetch"))).toBe("TypeError: Failed to fetch");
    expect(errorText(new Error("plain"))).toBe("plain");
    expect(errorText({ name: "DeviceLostError", message: "lost" })).toBe("DeviceLostError: lost");
    expect(errorText(42)).toBe("42");
  });

  it("truncates a long detail", () => {
    const problem = classifyWebLLMError(`TypeError: Failed to fetch ${"x".repeat(2000)}`);
    expect(problem.detail.length).toBeLessThanOrEqual(501);
  });
});

describe("toWebLLMError", () => {
  it("maps to a coded LlmError with the table's message and the raw text", () => {
    const e = toWebLLMError(CASES[0]![0]);
    expect(e).toBeInstanceOf(LlmError);
    expect(e.code).toBe("gpu_device_lost");
    expect(e.message.startsWith(ERROR_MESSAGES.gpu_device_lost)).toBe(true);
    expect(e.message).toContain("DeviceLostError");
    expect(e.retryable).toBe(false);
  });

  it("reads anything as aborted once the signal has aborted, and passes LlmErrors through", () => {
    const controller = new AbortController();
    controller.abort();
    expect(toWebLLMError("TypeError: Failed to fetch", controller.signal).code).toBe("aborted");
    const own = new LlmError("timeout");
    expect(toWebLLMError(own)).toBe(own);
    expect(toWebLLMError("AbortError: stop").message).toBe(ERROR_MESSAGES.aborted);
  });
});
