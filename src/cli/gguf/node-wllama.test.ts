/**
 * Real llama.cpp inference (wllama's WebAssembly, on the CPU) of the tiny GGUF that
 * scripts/make-tiny-gguf.py writes: the Conductor's prompt under the plan grammar, through the
 * GGUF backend, parsed by the studio's own parser. No fake engine.
 */
import { openAsBlob } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildConductorMessages } from "../../engine/conductor/prompt.ts";
import { parseConductorOutput } from "../../engine/conductor/parse.ts";
import { constrainedRequest } from "../../engine/exec/plan-grammar.ts";
import type { GgufBackend, GgufStats } from "../../engine/llm/gguf/backend.ts";
import { createGgufBackend } from "../../engine/llm/gguf/backend.ts";
import type { ChatRequest } from "../../engine/llm/types.ts";
import { LlmError, collect } from "../../engine/llm/types.ts";
import type { Pool } from "../../engine/schema/worker.ts";
import { nodeWllama } from "./node-wllama.ts";
import { makeTinyGguf } from "../../test-support/cli/tiny-gguf.ts";

const pool = ["Solver A", "Solver B", "Solver C"].map((name, i) => ({
  id: `w${i}`,
  name,
  kind: "openai",
  baseURL: "http://127.0.0.1:1/v1",
  model: `m${i}`,
})) as Pool;

function planRequest(backend: GgufBackend): ChatRequest {
  const messages = buildConductorMessages({
    question: "What is 17 * 23?",
    pool,
    maxSteps: 5,
    namedWorkers: false,
    continuesAssistant: backend.continuesAssistant,
  });
  const plain = { messages, temperature: 0.7, maxTokens: 200 };
  return constrainedRequest(plain, "webllm", { workers: 3, maxSteps: 5, round: 0 }).request;
}

describe("the GGUF Conductor in Node (real wllama)", () => {
  let backend: GgufBackend;
  const stats: GgufStats[] = [];

  beforeAll(async () => {
    const wllama = await nodeWllama();
    await wllama.loadModel([await openAsBlob(makeTinyGguf())], { n_ctx: 4096, n_threads: 1 });
    backend = createGgufBackend(wllama, {
      modelId: "tiny.gguf",
      contextWindow: 4096,
      onStats: (s) => stats.push(s),
    });
  }, 60_000);

  afterAll(async () => {
    await backend?.unload();
  });

  it("plans under the plan grammar, and the studio's parser reads the plan", async () => {
    const request = planRequest(backend);
    expect(request.grammar).toContain("model_id = [");
    const out = await collect(backend, request, new AbortController().signal);
    const parsed = parseConductorOutput(out.text, { workers: 3, maxSteps: 5 });
    expect(parsed.ok, out.text).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.steps.length).toBeGreaterThan(0);
    // The grammar's fixed prefix is the opening the prompt no longer asks for.
    expect(out.text.startsWith("Let me work out which models")).toBe(true);
    expect(out.usage).toMatchObject({ estimated: false });
    expect(out.usage!.completionTokens).toBeGreaterThan(0);
    expect(stats.at(-1)!.decodeTokensPerSec).toBeGreaterThan(0);
    expect(stats.at(-1)!.prefillTokensPerSec).toBeGreaterThan(0);
  }, 60_000);

  it("stops when the signal aborts, and the next call runs", async () => {
    const controller = new AbortController();
    const first = (async () => {
      for await (const chunk of backend.stream(planRequest(backend), controller.signal)) {
        if (chunk.type === "delta") controller.abort();
      }
    })();
    await expect(first).rejects.toSatisfy((e) => e instanceof LlmError && e.code === "aborted");
    const again = await collect(backend, planRequest(backend), new AbortController().signal);
    expect(parseConductorOutput(again.text, { workers: 3, maxSteps: 5 }).ok).toBe(true);
  }, 60_000);
});
