import type { Worker } from "../schema/worker.ts";
import { listPrice } from "./prices.ts";
import type { ProviderPreset } from "./presets.ts";
import { presetById } from "./presets.ts";
import { newId } from "../ids.ts";

/** A fresh worker id (ids.ts). */
export function newWorkerId(): string {
  return newId("w");
}

/**
 * A new OpenAI-compatible worker filled from a preset: base URL, headers, a starting model and, where
 * one is known, its default price. `model` overrides the preset's starting model.
 */
export function workerFromPreset(
  preset: ProviderPreset,
  options: { id?: string; name?: string; model?: string; note?: string; maxTokens?: number } = {},
): Worker {
  const model = options.model ?? preset.defaultModel;
  const price = listPrice(preset.id, model);
  return {
    id: options.id ?? newWorkerId(),
    name: options.name ?? (model ? `${model}` : preset.label),
    kind: "openai",
    provider: preset.id,
    baseURL: preset.baseURL,
    model,
    temperature: 0.2,
    maxTokens: options.maxTokens ?? 4096,
    ...(price ? { price: { input: price.input, output: price.output } } : {}),
    ...(options.note ? { note: options.note } : {}),
    ...(preset.headers
      ? { headers: { ...preset.headers }, plainHeaders: Object.keys(preset.headers) }
      : {}),
    prefill: false,
  };
}

interface PaperWorker {
  name: string;
  provider: string;
  model: string;
  note: string;
  /** Extra request fields, e.g. the thinking switch that makes one model two workers. */
  extraBody?: Record<string, unknown>;
}

/**
 * Qwen3's thinking switch, in both dialects: OpenRouter's unified `reasoning` parameter, and
 * `chat_template_kwargs` for vLLM and SGLang (an endpoint ignores the one it does not know).
 */
const qwenThinking = (on: boolean) => ({
  reasoning: { enabled: on },
  chat_template_kwargs: { enable_thinking: on },
});

/**
 * The Conductor paper's seven workers in the paper's id order (docs/protocol.md, introduction).
 * Providers are chosen for browser access: OpenRouter for Gemini (Google's OpenAI-compatible
 * endpoint fails CORS) and for the open models; OpenAI and Anthropic directly.
 */
const PAPER_WORKERS: readonly PaperWorker[] = [
  {
    name: "Gemini 2.5 Pro",
    provider: "openrouter",
    model: "google/gemini-2.5-pro",
    note: "Frontier reasoning model; strong at science and long analysis.",
  },
  {
    name: "Claude Sonnet 4",
    provider: "anthropic",
    model: "claude-sonnet-4-20250514",
    note: "Frontier model; strong at code and careful step-by-step checking.",
  },
  {
    name: "GPT-5",
    provider: "openai",
    model: "gpt-5",
    note: "Frontier reasoning model; strong at math and code.",
  },
  {
    name: "Qwen3-32B (direct)",
    provider: "openrouter",
    model: "qwen/qwen3-32b",
    note: "Open 32B model answering without thinking; cheap and fast.",
    extraBody: qwenThinking(false),
  },
  {
    name: "Qwen3-32B (thinking)",
    provider: "openrouter",
    model: "qwen/qwen3-32b",
    note: "Open 32B model with thinking on; slower, better at multi-step problems.",
    extraBody: qwenThinking(true),
  },
  {
    name: "Gemma-3-27B",
    provider: "openrouter",
    model: "google/gemma-3-27b-it",
    note: "Small open model; quick drafts and simple questions.",
  },
  {
    name: "DeepSeek-R1-Distill-Qwen-32B",
    provider: "openrouter",
    model: "deepseek/deepseek-r1-distill-qwen-32b",
    note: "Open reasoning model distilled from DeepSeek-R1; math and logic.",
  },
];

/** The paper pool, ready to use once the user adds keys for OpenRouter, Anthropic and OpenAI. */
export function paperPool(): Worker[] {
  return PAPER_WORKERS.map((w, i) => {
    const preset = presetById(w.provider);
    if (!preset) throw new Error(`Unknown preset ${w.provider}`); // a bug in the table above
    const worker = workerFromPreset(preset, {
      id: `paper-${i}`,
      name: w.name,
      model: w.model,
      note: w.note,
    });
    return w.extraBody ? { ...worker, extraBody: structuredClone(w.extraBody) } : worker;
  });
}
