import { WorkerSchema } from "../schema/worker.ts";
import { describe, expect, it } from "vitest";
import { paperPool, workerFromPreset } from "./paper.ts";
import { PROVIDER_PRESETS, presetById } from "./presets.ts";
import { allListPrices, listPrice } from "./prices.ts";

describe("provider presets", () => {
  it("cover every provider the issue names, each once", () => {
    expect(PROVIDER_PRESETS.map((p) => p.id)).toEqual([
      "openai",
      "anthropic",
      "gemini",
      "openrouter",
      "groq",
      "together",
      "deepseek",
      "mistral",
      "ollama",
      "lmstudio",
      "vllm",
    ]);
  });

  it.each(PROVIDER_PRESETS.map((p) => [p.id, p] as const))(
    "%s has a valid base URL, a status with its source, and no credential header",
    (_id, preset) => {
      const url = new URL(preset.baseURL);
      expect(url.protocol).toBe(preset.local ? "http:" : "https:");
      expect(preset.baseURL.endsWith("/")).toBe(false);
      expect(preset.browserNote.length).toBeGreaterThan(20);
      for (const name of Object.keys(preset.headers ?? {}))
        expect(name).not.toMatch(/authorization|key|token|secret/i);
    },
  );

  it("sets the header Anthropic requires for browser calls", () => {
    expect(presetById("anthropic")?.headers).toEqual({
      "anthropic-dangerous-direct-browser-access": "true",
    });
    expect(presetById("anthropic")?.browser).toBe("needs_header");
  });

  it("names the setting that enables browser access on every local server", () => {
    const local = PROVIDER_PRESETS.filter((p) => p.local);
    expect(local.map((p) => p.id)).toEqual(["ollama", "lmstudio", "vllm"]);
    expect(presetById("ollama")?.enableBrowser).toContain("OLLAMA_ORIGINS");
    expect(presetById("lmstudio")?.enableBrowser).toMatch(/CORS/);
    expect(presetById("vllm")?.enableBrowser).toContain("--allowed-origins");
  });

  it("fills a worker from a preset, copying headers rather than sharing them", () => {
    const preset = presetById("anthropic");
    if (!preset) throw new Error("no anthropic preset");
    const w = workerFromPreset(preset);
    expect(w).toMatchObject({
      kind: "openai",
      provider: "anthropic",
      baseURL: "https://api.anthropic.com/v1",
      model: "claude-sonnet-4-20250514",
      price: { input: 3, output: 15 },
    });
    expect(w.headers).not.toBe(preset.headers);
  });

  it("leaves the price unset where none is known", () => {
    const preset = presetById("together");
    if (!preset) throw new Error("no together preset");
    expect(workerFromPreset(preset).price).toBeUndefined();
  });
});

describe("default prices", () => {
  it("carry a date and a source, and are per million tokens", () => {
    for (const { price } of allListPrices()) {
      expect(price.asOf).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
      expect(price.source.length).toBeGreaterThan(5);
      expect(price.output).toBeGreaterThanOrEqual(price.input);
    }
    expect(listPrice("openai", "gpt-5")).toMatchObject({ input: 1.25, output: 10 });
  });

  it("treat local servers as free and unknown models as unknown", () => {
    expect(listPrice("ollama", "anything")).toMatchObject({ input: 0, output: 0 });
    expect(listPrice("openrouter", "google/gemma-3-27b-it")).toBeUndefined();
    expect(listPrice(undefined, "gpt-5")).toBeUndefined();
  });
});

describe("paper pool", () => {
  it("lists the paper's seven workers in the paper's id order", () => {
    expect(paperPool().map((w) => w.name)).toEqual([
      "Gemini 2.5 Pro",
      "Claude Sonnet 4",
      "GPT-5",
      "Qwen3-32B (direct)",
      "Qwen3-32B (thinking)",
      "Gemma-3-27B",
      "DeepSeek-R1-Distill-Qwen-32B",
    ]);
  });

  it("uses providers a browser can call, with unique ids and a note for the Conductor", () => {
    const pool = paperPool();
    expect(new Set(pool.map((w) => w.id)).size).toBe(7);
    for (const w of pool) {
      expect(["allowed", "needs_header"]).toContain(presetById(w.provider)?.browser);
      expect(w.note?.length).toBeGreaterThan(10);
      expect(w.baseURL).toBe(presetById(w.provider)?.baseURL);
    }
    expect(pool[1]?.headers).toEqual({ "anthropic-dangerous-direct-browser-access": "true" });
  });

  it("makes Qwen3-32B two workers, thinking off and on, through extra request fields", () => {
    const [direct, thinking] = paperPool().slice(3, 5);
    expect(direct?.model).toBe(thinking?.model);
    expect(direct?.extraBody).toMatchObject({ chat_template_kwargs: { enable_thinking: false } });
    expect(thinking?.extraBody).toMatchObject({ chat_template_kwargs: { enable_thinking: true } });
    expect(WorkerSchema.safeParse(direct).success).toBe(true);
  });
});
