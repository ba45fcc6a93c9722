// Qwen3 and DeepSeek-R1 distills in the browser write their reasoning inline: the in-browser
// backend sorts it into the reasoning channel like the OpenAI-compatible path does.
import { describe, expect, it } from "vitest";
import { callWithRetry } from "../../exec/call.ts";
import { DEFAULT_RETRY } from "../../exec/retry.ts";
import { createWebLLMBackend } from "./backend.ts";
import { MODEL, drain, fakeEngine, request } from "../../../test-support/webllm-engine-fake.ts";
import { createScriptedEngine } from "./scripted.ts";

const signal = () => new AbortController().signal;

describe("the in-browser backend and <think>", () => {
  it("streams a leading <think> block as reasoning, its tags split across chunks", async () => {
    const { engine } = fakeEngine([
      { chunks: ["<thi", "nk>\nTry 17", ", 17 × 23 = 391.</th", "ink>\n\n391 is", " not prime."] },
    ]);
    const backend = createWebLLMBackend(engine, { modelId: MODEL });
    const chunks = await drain(backend.stream(request(), signal()));
    const of = (type: string) =>
      chunks.flatMap((c) => (c.type === type && "text" in c ? [c.text] : [])).join("");
    expect(of("reasoning")).toBe("Try 17, 17 × 23 = 391.");
    expect(of("delta")).toBe("391 is not prime.");
    expect(chunks.at(-1)?.type).toBe("usage");
  });

  it("keeps an unclosed block (the token limit cut it) as reasoning", async () => {
    const { engine } = fakeEngine([{ chunks: ["<think>still ", "going </th"] }]);
    const chunks = await drain(
      createWebLLMBackend(engine, { modelId: MODEL }).stream(request(), signal()),
    );
    expect(chunks.filter((c) => c.type === "delta")).toEqual([]);
    expect(chunks.flatMap((c) => (c.type === "reasoning" ? [c.text] : [])).join("")).toBe(
      "still going </th",
    );
  });

  it("keeps the reasoning of a scripted reply out of the call's answer, whole or bare-closed", async () => {
    const scripted = createScriptedEngine({
      chunkSize: 3,
      replies: [
        { when: "opened", text: "<think>\nPlan: two steps.\n</think>\n\nmodel_id = [0]" },
        { when: "bare", text: "Plan: one step.\n</think>\n\nmodel_id = [1]" },
      ],
    });
    const backend = createWebLLMBackend(scripted.engine, { modelId: MODEL });
    const streamed: string[] = [];
    const call = (q: string) =>
      callWithRetry(backend, request(q), signal(), DEFAULT_RETRY, {
        onReasoning: (t) => streamed.push(t),
      });
    expect(await call("opened")).toMatchObject({
      text: "model_id = [0]",
      reasoning: "Plan: two steps.\n",
    });
    // Streamed as reasoning in pieces, not only split from the finished answer.
    expect(streamed.length).toBeGreaterThan(1);
    expect(streamed.join("")).toBe("Plan: two steps.\n");
    expect(await call("bare")).toMatchObject({
      text: "model_id = [1]",
      reasoning: "Plan: one step.\n",
    });
  });
});
