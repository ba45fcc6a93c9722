import type { Price } from "../schema/worker.ts";

/**
 * A default list price, in dollars per million tokens, with the date it was taken and where from.
 * Defaults only: every worker's price is editable, and a provider's own cost figure (OpenRouter's
 * `usage.cost`) replaces it after a call.
 */
export interface ListPrice extends Price {
  /** The date of the source the figures come from (ISO date or month). */
  asOf: string;
  source: string;
  note?: string;
}

/** Keys are `provider-preset-id:model`. */
const LIST_PRICES: Readonly<Record<string, ListPrice>> = {
  "openai:gpt-5": {
    input: 1.25,
    output: 10,
    asOf: "2025-08",
    source: "OpenAI API pricing page (GPT-5 launch list price)",
  },
  "openai:gpt-5-mini": {
    input: 0.25,
    output: 2,
    asOf: "2025-08",
    source: "OpenAI API pricing page (GPT-5 mini launch list price)",
  },
  "anthropic:claude-sonnet-4-20250514": {
    input: 3,
    output: 15,
    asOf: "2025-11-25",
    source: "Anthropic pricing page (Sonnet 4 and 4.5 share $3 / $15)",
  },
  "gemini:gemini-2.5-pro": {
    input: 1.25,
    output: 10,
    asOf: "2025-06",
    source: "Google Gemini API pricing page",
    note: "prompts up to 200k tokens; longer prompts cost $2.50 in / $15 out",
  },
  "openrouter:google/gemini-2.5-pro": {
    input: 1.25,
    output: 10,
    asOf: "2025-06",
    source: "Google's list price, which OpenRouter passes through",
    note: "OpenRouter reports the real cost of each call after it",
  },
  "openrouter:anthropic/claude-sonnet-4": {
    input: 3,
    output: 15,
    asOf: "2025-11-25",
    source: "Anthropic's list price, which OpenRouter passes through",
  },
  "openrouter:openai/gpt-5": {
    input: 1.25,
    output: 10,
    asOf: "2025-08",
    source: "OpenAI's list price, which OpenRouter passes through",
  },
  "groq:qwen/qwen3-32b": {
    input: 0.29,
    output: 0.59,
    asOf: "2026-11-30",
    source: "Groq's list price as recorded by models.dev (groq/qwen/qwen3-32b), read that day",
  },
  "deepseek:deepseek-chat": {
    input: 0.27,
    output: 1.1,
    asOf: "2025-02",
    source: "api-docs.deepseek.com pricing (cache-miss input)",
  },
  "deepseek:deepseek-reasoner": {
    input: 0.55,
    output: 2.19,
    asOf: "2025-02",
    source: "api-docs.deepseek.com pricing (cache-miss input)",
  },
};

/** Local servers cost nothing per token. */
const FREE_PROVIDERS: ReadonlySet<string> = new Set(["ollama", "lmstudio", "vllm"]);

/**
 * The default list price of a model at a provider, or undefined when none is known (the estimator
 * then marks the step's cost unknown rather than guessing). Local servers are free.
 */
export function listPrice(provider: string | undefined, model: string): ListPrice | undefined {
  if (!provider) return undefined;
  if (FREE_PROVIDERS.has(provider))
    return { input: 0, output: 0, asOf: "always", source: "a local server: no per-token price" };
  return LIST_PRICES[`${provider}:${model}`];
}

/** Every default price, for a reference table. */
export function allListPrices(): { provider: string; model: string; price: ListPrice }[] {
  return Object.entries(LIST_PRICES).map(([key, price]) => {
    const at = key.indexOf(":");
    return { provider: key.slice(0, at), model: key.slice(at + 1), price };
  });
}
