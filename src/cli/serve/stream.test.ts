// `conductor-studio serve` streaming, as a harness reads it with the official `openai` client: the
// final step's tokens as they come, retries of that step mid-stream, errors after the stream began,
// and a client that disconnects.
import OpenAI from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { describe, it } from "vitest";
import {
  ANSWER_A,
  ANSWER_B,
  ATTEMPTS_THEN_CHECK,
  CLI_TIMEOUT_MS,
  USAGE,
  USAGE_TOTAL as TOTAL,
  ask,
  chatRequests,
  threeWorkerConfig,
} from "../../test-support/cli/cli-harness.ts";
import { readRuns, serveSuite } from "../../test-support/cli/serve-child.ts";

const PIECES = ["The sum ", "of 1 to 100 ", "is 100 * 101 / 2, ", "which is ", "5050."];

/** Reads a stream to its end: the content pieces, and the error that ended it, if any. */
async function drain(stream: AsyncIterable<OpenAI.ChatCompletionChunk>) {
  const contents: string[] = [];
  try {
    for await (const chunk of stream) {
      const text = chunk.choices[0]?.delta.content;
      if (text) contents.push(text);
    }
    return { contents, error: null };
  } catch (e: unknown) {
    return { contents, error: e };
  }
}

describe("conductor-studio serve, streaming", { timeout: CLI_TIMEOUT_MS }, () => {
  const suite = serveSuite({
    config: (server) => threeWorkerConfig(server, { retry: { baseDelayMs: 1, maxDelayMs: 5 } }),
  });
  const scriptFirstSteps = () => {
    suite.server.script("conductor-7b", ATTEMPTS_THEN_CHECK);
    suite.server.script("solver-a", ANSWER_A);
    suite.server.script("solver-b", ANSWER_B);
  };

  it("streams the final step's tokens as they come, then usage and [DONE]", async ({ expect }) => {
    const pieces = ["Both attempts ", "are correct ", "and agree. ", "The sum is 5050."];
    suite.server.script("conductor-7b", {
      content: ATTEMPTS_THEN_CHECK,
      usage: USAGE["conductor-7b"],
    });
    suite.server.script("solver-a", { content: ANSWER_A, usage: USAGE["solver-a"] });
    suite.server.script("solver-b", { content: ANSWER_B, usage: USAGE["solver-b"] });
    suite.server.script("checker", { chunks: pieces, chunkDelayMs: 5, usage: USAGE.checker });
    const body: ChatCompletionCreateParamsStreaming & { conductor_trace: boolean } = {
      ...ask(),
      stream: true,
      stream_options: { include_usage: true },
      conductor_trace: true,
    };
    const stream = await suite.client.chat.completions.create(body);
    const contents: string[] = [];
    const chunks = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      const text = chunk.choices[0]?.delta.content;
      if (text) contents.push(text);
    }
    // One chunk per streamed token group of the checker: nothing was buffered into one.
    expect(contents).toEqual(pieces);
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    expect(
      chunks.every((c) => c.object === "chat.completion.chunk" && c.model === "conductor"),
    ).toBe(true);
    const finish = chunks.find((c) => c.choices[0]?.finish_reason === "stop");
    expect(finish).toMatchObject({ conductor_trace: { status: "done" } });
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual({
      prompt_tokens: TOTAL.p,
      completion_tokens: TOTAL.c,
      total_tokens: TOTAL.p + TOTAL.c,
    });
  });

  it("cancels and records the run of a client that disconnects mid-stream", async ({ expect }) => {
    suite.server.script("conductor-7b", ATTEMPTS_THEN_CHECK);
    suite.server.script("solver-a", ANSWER_A);
    suite.server.script("solver-b", ANSWER_B);
    const pieces = Array.from({ length: 40 }, (_, i) => `word${i} `);
    suite.server.script("checker", { chunks: pieces, chunkDelayMs: 50 });
    const stream = await suite.client.chat.completions.create({
      ...ask("Disconnect me?"),
      stream: true,
    });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) break; // leaving the loop aborts the request
    }
    const line = await suite.serve.waitForLine(/ 499 cancelled \(cancelled\)/);
    const id = line.replace("[serve] ", "").split(" ")[0];
    const record = (await readRuns(suite.runs)).find((l) => l.served.request_id === id);
    expect(record?.served).toMatchObject({
      client_disconnected: true,
      http_status: 499,
      stream: true,
    });
    expect(record?.run).toMatchObject({
      status: "cancelled",
      endReason: "cancelled",
      answer: null,
    });
    const checker = record?.run.rounds[0]?.steps[2];
    expect(checker?.status).toBe("cancelled");
    expect(checker?.output.length).toBeLessThan(pieces.join("").length);
  });

  it("continues seamlessly when the final step drops mid-stream and its retry agrees", async ({
    expect,
  }) => {
    scriptFirstSteps();
    suite.server.script("checker", { chunks: PIECES, drop: "mid" }, { chunks: PIECES });
    const stream = await suite.client.chat.completions.create({ ...ask(), stream: true });
    const { contents, error } = await drain(stream);
    expect(error).toBeNull();
    expect(contents.join("")).toBe(PIECES.join(""));
    expect(chatRequests(suite.server, "checker")).toHaveLength(2); // it did drop and retry
  });

  it("ends the stream with an error event when the final step fails after streaming began", async ({
    expect,
  }) => {
    scriptFirstSteps();
    suite.server.script("checker", { chunks: PIECES, drop: "mid" }, { status: 401 });
    const stream = await suite.client.chat.completions.create({ ...ask(), stream: true });
    const { contents, error } = await drain(stream);
    expect(contents.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ code: "upstream_auth", type: "server_error" });
    expect((error as Error).message).toContain("Step 3 (Checker) failed (auth)");
  });

  it("flags a retried final step whose new answer contradicts what was streamed", async ({
    expect,
  }) => {
    scriptFirstSteps();
    suite.server.script(
      "checker",
      { chunks: PIECES, drop: "mid" },
      { content: "A different answer: 5051." },
    );
    const stream = await suite.client.chat.completions.create({ ...ask(), stream: true });
    const { contents, error } = await drain(stream);
    expect(PIECES.join("").startsWith(contents.join(""))).toBe(true);
    expect(error).toMatchObject({ code: "stream_diverged" });
  });
});
