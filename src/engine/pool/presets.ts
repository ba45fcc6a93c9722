/**
 * Provider presets: what fills a new worker's base URL and headers, and what is known of calling that
 * endpoint straight from a web page. Browser access is a property of the provider's server (its CORS
 * answers), which no documentation settles for good, so each preset carries the status, where it
 * comes from, and when that was read. Every field a preset fills stays editable on the worker.
 */

/**
 * - `allowed`: the endpoint answers cross-origin calls from any page;
 * - `needs_header`: it does once the request carries a header the preset sets;
 * - `needs_setting`: a local server that allows other origins only once a setting enables it;
 * - `blocked`: reported to refuse browser calls (a proxy is needed);
 * - `unknown`: nothing reliable found.
 */
export type BrowserStatus = "allowed" | "needs_header" | "needs_setting" | "blocked" | "unknown";

export interface ProviderPreset {
  id: string;
  label: string;
  baseURL: string;
  /** Headers every call carries (never a credential). */
  headers?: Record<string, string>;
  /** A model to start with; the user picks another or fetches the list. */
  defaultModel: string;
  browser: BrowserStatus;
  /** Why the status is what it is, naming the source, short enough for a tooltip. */
  browserNote: string;
  /** For local servers: the setting that lets a web page call it. */
  enableBrowser?: string;
  local?: boolean;
  /** Where the provider documents its OpenAI-compatible endpoint. */
  docs: string;
}

// The browser statuses below were last checked against their sources on 2026-11-30.

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: "openai",
    label: "OpenAI",
    baseURL: "https://api.openai.com/v1",
    defaultModel: "gpt-5",
    browser: "allowed",
    browserNote:
      "Answers browser calls; OpenAI documents no CORS policy, but its staff called missing CORS " +
      "answers a bug (community.openai.com, 2025-10-15). The openai SDK only asks for " +
      "dangerouslyAllowBrowser.",
    docs: "https://platform.openai.com/docs/api-reference",
  },
  {
    id: "anthropic",
    label: "Anthropic (OpenAI-compatible)",
    baseURL: "https://api.anthropic.com/v1",
    headers: { "anthropic-dangerous-direct-browser-access": "true" },
    defaultModel: "claude-sonnet-4-20250514",
    browser: "needs_header",
    browserNote:
      "Refuses browser calls without the header anthropic-dangerous-direct-browser-access: true " +
      "(\"CORS requests must set 'anthropic-dangerous-direct-browser-access' header\", " +
      "n4ze3m/page-assist#511); Anthropic's SDK sends it when dangerouslyAllowBrowser is set. An " +
      "organisation can still switch CORS off (anthropic-sdk-typescript#703).",
    docs: "https://docs.anthropic.com/en/api/openai-sdk",
  },
  {
    id: "gemini",
    label: "Google Gemini (OpenAI-compatible)",
    baseURL: "https://generativelanguage.googleapis.com/v1beta/openai",
    defaultModel: "gemini-2.5-pro",
    browser: "blocked",
    browserNote:
      "The OpenAI-compatible endpoint was reported to fail the CORS preflight from a page " +
      "(nick1udwig/kibitz#218, 2025-05; discuss.ai.google.dev thread 58619). Use OpenRouter for " +
      "Gemini in the browser, or a proxy.",
    docs: "https://ai.google.dev/gemini-api/docs/openai",
  },
  {
    id: "openrouter",
    label: "OpenRouter",
    baseURL: "https://openrouter.ai/api/v1",
    defaultModel: "google/gemini-2.5-pro",
    browser: "allowed",
    browserNote:
      "Allows CORS from any page (open-pencil/open-pencil#247, 2026-05); its quickstart calls the " +
      "API with fetch and an HTTP-Referer for the calling site. Reports each call's cost.",
    docs: "https://openrouter.ai/docs/quickstart",
  },
  {
    id: "groq",
    label: "Groq",
    baseURL: "https://api.groq.com/openai/v1",
    defaultModel: "qwen/qwen3-32b",
    browser: "unknown",
    browserNote: "No statement found in Groq's docs or issue trackers. Use Test connection.",
    docs: "https://console.groq.com/docs/openai",
  },
  {
    id: "together",
    label: "Together AI",
    baseURL: "https://api.together.xyz/v1",
    defaultModel: "Qwen/Qwen3-32B",
    browser: "unknown",
    browserNote: "No statement found in Together's docs or issue trackers. Use Test connection.",
    docs: "https://docs.together.ai/docs/openai-api-compatibility",
  },
  {
    id: "deepseek",
    label: "DeepSeek",
    baseURL: "https://api.deepseek.com/v1",
    defaultModel: "deepseek-chat",
    browser: "unknown",
    browserNote:
      "Reports conflict: browser clients saw CORS errors (DeepLifeStudio/DeepSeekAI#7, 2025-01; " +
      "yuanbw2025/storyforge#4, 2026-05) while others call it directly " +
      "(logancyang/obsidian-copilot#1491). Use Test connection.",
    docs: "https://api-docs.deepseek.com/",
  },
  {
    id: "mistral",
    label: "Mistral",
    baseURL: "https://api.mistral.ai/v1",
    defaultModel: "mistral-large-latest",
    browser: "blocked",
    browserNote:
      "CORS is on (mistralai/client-js#21, 2023-12), but its preflight refuses the openai SDK's " +
      "x-stainless-timeout header (infiolab/infio-copilot#146, 2026-03), and this studio calls " +
      "through that SDK. Use OpenRouter or a proxy.",
    docs: "https://docs.mistral.ai/api/",
  },
  {
    id: "ollama",
    label: "Ollama (local)",
    baseURL: "http://localhost:11434/v1",
    defaultModel: "qwen3:32b",
    browser: "needs_setting",
    browserNote:
      "Ollama allows cross-origin requests from 127.0.0.1 and 0.0.0.0 by default; other origins " +
      "must be added with OLLAMA_ORIGINS (Ollama FAQ, docs.ollama.com/faq).",
    enableBrowser:
      "Start Ollama with OLLAMA_ORIGINS set to this page's origin, e.g. " +
      "OLLAMA_ORIGINS=https://studio.example ollama serve",
    local: true,
    docs: "https://docs.ollama.com/faq",
  },
  {
    id: "lmstudio",
    label: "LM Studio (local)",
    baseURL: "http://localhost:1234/v1",
    defaultModel: "qwen3-32b",
    browser: "needs_setting",
    browserNote:
      'CORS is off unless enabled (lmstudio.ai/docs/cli/server-start: "When not set, CORS is ' +
      'disabled").',
    enableBrowser:
      "Turn on Enable CORS in the Developer tab's server settings, or run lms server start --cors",
    local: true,
    docs: "https://lmstudio.ai/docs/cli/server-start",
  },
  {
    id: "vllm",
    label: "vLLM (local)",
    baseURL: "http://localhost:8000/v1",
    defaultModel: "Qwen/Qwen3-32B",
    browser: "allowed",
    browserNote:
      "vllm serve answers every origin by default (--allowed-origins, default ['*']; vLLM serve " +
      "arguments, docs.vllm.ai/en/latest/cli/serve).",
    enableBrowser: "Allowed by default; --allowed-origins narrows it to the origins you list",
    local: true,
    docs: "https://docs.vllm.ai/en/latest/cli/serve/",
  },
];

/** A custom OpenAI-compatible endpoint: everything left to the user. */
export const CUSTOM_PRESET: ProviderPreset = {
  id: "custom",
  label: "Custom OpenAI-compatible",
  baseURL: "",
  defaultModel: "",
  browser: "unknown",
  browserNote: "Depends on the server's CORS answers. Use Test connection.",
  docs: "",
};

/** The preset with this id, if any. */
export function presetById(id: string | undefined): ProviderPreset | undefined {
  if (!id) return undefined;
  return id === CUSTOM_PRESET.id ? CUSTOM_PRESET : PROVIDER_PRESETS.find((p) => p.id === id);
}

/** Short words for a status, as the editor shows them. */
export const BROWSER_STATUS_LABEL: Readonly<Record<BrowserStatus, string>> = {
  allowed: "browser calls allowed",
  needs_header: "browser calls need a header (set by the preset)",
  needs_setting: "browser calls need a server setting",
  blocked: "browser calls blocked",
  unknown: "browser access unknown",
};
