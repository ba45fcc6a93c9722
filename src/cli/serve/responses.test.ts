// `POST /v1/responses` as the official client calls it: `responses.create` and `responses.stream`.
import { APIError } from "openai";
import type { ResponseCreateParamsNonStreaming } from "openai/resources/responses/responses";
import { describe, it } from "vitest";
import {
  ANSWER_A,
  ANSWER_B,
  ATTEMPTS_THEN_CHECK,
  CHECKED,
  CLI_TIMEOUT_MS,
  QUESTION,
  USAGE,
  USAGE_TOTAL as TOTAL,
  chatRequests,
  promptText,
  scriptAttemptsThenCheck,
} from "../../test-support/cli/cli-harness.ts";
import { parseResponsesRequest } from "./responses.ts";
import { serveIt } from "../../test-support/cli/serve-in-process.ts";

describe("serve /v1/responses", { timeout: CLI_TIMEOUT_MS }, () => {
  serveIt(
    "answers text input with instructions, usage and, asked, the trace",
    async ({ expect, s }) => {
      scriptAttemptsThenCheck(s.server);
      const r = await s.client().responses.create({
        model: "conductor",
        input: QUESTION,
        instructions: "End with the number alone on the last line.",
        conductor_trace: true,
      } as ResponseCreateParamsNonStreaming);
      expect(r.object).toBe("response");
      expect(r.status).toBe("completed");
      expect(r.output_text).toBe(CHECKED);
      expect(r.output[0]).toMatchObject({ type: "message", role: "assistant" });
      expect(r.usage).toMatchObject({
        input_tokens: TOTAL.p,
        output_tokens: TOTAL.c,
        total_tokens: TOTAL.p + TOTAL.c,
      });
      expect(r).toMatchObject({ conductor_trace: { status: "done", totals: { calls: 4 } } });
      // The instructions reach the Conductor as context before the question.
      const plan = promptText(chatRequests(s.server, "conductor-7b")[0]);
      expect(plan).toContain("End with the number alone on the last line.");
      expect(plan.indexOf("End with the number")).toBeLessThan(plan.lastIndexOf(QUESTION));
    },
  );

  serveIt("reads message input and streams the Open Responses events", async ({ expect, s }) => {
    const pieces = ["Both attempts ", "agree. ", "The sum is 5050."];
    s.server.script("conductor-7b", { content: ATTEMPTS_THEN_CHECK, usage: USAGE["conductor-7b"] });
    s.server.script("solver-a", { content: ANSWER_A, usage: USAGE["solver-a"] });
    s.server.script("solver-b", { content: ANSWER_B, usage: USAGE["solver-b"] });
    s.server.script("checker", { chunks: pieces, usage: USAGE.checker });
    const stream = s.client().responses.stream({
      model: "conductor",
      input: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "input_text", text: QUESTION }] },
      ],
    });
    const types: string[] = [];
    const deltas: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.output_text.delta") deltas.push(event.delta);
    }
    const final = await stream.finalResponse();
    expect(deltas).toEqual(pieces);
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(types).toContain("response.output_text.done");
    expect(final.output_text).toBe(pieces.join(""));
    expect(final.usage).toMatchObject({ input_tokens: TOTAL.p, output_tokens: TOTAL.c });
    expect(promptText(chatRequests(s.server, "conductor-7b")[0])).toContain("Be brief.");
  });

  serveIt(
    "fails a stream with response.failed, and a whole answer with the coded error",
    async ({ expect, s }) => {
      s.server.setDefault("conductor-7b", "I cannot decide on a plan.");
      const e = await s
        .client()
        .responses.create({ model: "conductor", input: QUESTION })
        .catch((e: unknown) => e);
      expect(e).toBeInstanceOf(APIError);
      expect(e).toMatchObject({ status: 502, code: "plan_error" });
      const stream = s.client().responses.stream({ model: "conductor", input: QUESTION });
      const failed: unknown[] = [];
      for await (const event of stream) if (event.type === "response.failed") failed.push(event);
      expect(failed).toMatchObject([
        { response: { status: "failed", error: { code: "plan_error" } } },
      ]);
    },
  );

  it.for<[unknown, string, string | null]>([
    [{ input: [] }, "invalid_request", "input"],
    [{ input: "q", tools: [{ type: "function", name: "f" }] }, "unsupported_parameter", "tools"],
    [
      { input: "q", previous_response_id: "resp_1" },
      "unsupported_parameter",
      "previous_response_id",
    ],
    [
      { input: "q", text: { format: { type: "json_schema" } } },
      "unsupported_parameter",
      "text.format",
    ],
    [{ input: [{ type: "function_call_output", output: "1" }] }, "unsupported_content", "input[0]"],
    [
      { input: [{ role: "user", content: [{ type: "input_image", image_url: "x" }] }] },
      "unsupported_content",
      "input[0].content",
    ],
    [{ input: "  ", instructions: "Be brief." }, "missing_user_message", "input"],
  ])("refuses %j", ([body, code, param], { expect }) => {
    const r = parseResponsesRequest(body);
    expect(r.ok ? null : r.error).toMatchObject({ code, param });
  });
});
