// The chat request's field table: every field OpenAI's chat-completions API takes has a rule, each
// refused value answers 400 naming its field, each ignored or unknown field is named back, and the
// manual (docs/serve.md) lists the table as it is.
import { readFile } from "node:fs/promises";
import { describe, it } from "vitest";
import { CHAT_FIELDS } from "./fields.ts";
import { parseChatRequest } from "./request.ts";
import { serveIt } from "../../test-support/cli/serve-in-process.ts";
import {
  CHECKED,
  CLI_TIMEOUT_MS,
  ask,
  scriptAttemptsThenCheck,
} from "../../test-support/cli/cli-harness.ts";

const q = { messages: [{ role: "user", content: "q" }] };

/** The fields of OpenAI's ChatCompletionCreateParams (openai 6.x), every one of which has a rule. */
const OPENAI_FIELDS = [
  "messages",
  "model",
  "audio",
  "frequency_penalty",
  "function_call",
  "functions",
  "logit_bias",
  "logprobs",
  "max_completion_tokens",
  "max_tokens",
  "metadata",
  "modalities",
  "n",
  "parallel_tool_calls",
  "prediction",
  "presence_penalty",
  "prompt_cache_key",
  "prompt_cache_retention",
  "reasoning_effort",
  "response_format",
  "safety_identifier",
  "seed",
  "service_tier",
  "stop",
  "store",
  "stream",
  "stream_options",
  "temperature",
  "tool_choice",
  "tools",
  "top_logprobs",
  "top_p",
  "user",
  "verbosity",
  "web_search_options",
];

describe("the chat request's field table", () => {
  it("has a rule for every OpenAI chat field", ({ expect }) => {
    expect(OPENAI_FIELDS.filter((f) => !Object.hasOwn(CHAT_FIELDS, f))).toEqual([]);
  });

  it.for<[Record<string, unknown>, string]>([
    [{ modalities: ["text", "audio"] }, "modalities"],
    [{ audio: { voice: "alloy", format: "wav" } }, "audio"],
    [{ web_search_options: {} }, "web_search_options"],
    [{ function_call: { name: "f" } }, "function_call"],
    [{ functions: [{ name: "f" }] }, "functions"],
    [{ "bad\nname": 1 }, "(field name)"],
  ])("refuses %j with 400 naming it", ([extra, param], { expect }) => {
    const r = parseChatRequest({ ...q, ...extra });
    expect(r.ok ? null : r.error).toMatchObject({
      status: 400,
      code: "unsupported_parameter",
      param,
    });
  });

  it("names every ignored and unknown field it was sent, and passes values that ask nothing", ({
    expect,
  }) => {
    const r = parseChatRequest({
      ...q,
      modalities: ["text"],
      prediction: { type: "content", content: "x" },
      top_k: 20,
      repetition_penalty: 1.1,
      my_vendor_knob: true,
      audio: null,
      stop: null,
    });
    expect(r.ok ? r.request.ignored : r.error).toEqual([
      "prediction",
      "top_k",
      "repetition_penalty",
      "my_vendor_knob",
    ]);
  });

  it("is docs/serve.md's table", async ({ expect }) => {
    const readme = await readFile(new URL("../../../docs/serve.md", import.meta.url), "utf8");
    for (const [name, field] of Object.entries(CHAT_FIELDS)) {
      const row = new RegExp(`^\\| ${field.rule}\\s*\\|.*\`${name}\``, "m");
      expect(readme, name).toMatch(row);
    }
  });
});

describe("serve names what it ignores", { timeout: CLI_TIMEOUT_MS }, () => {
  serveIt(
    "sends x-conductor-ignored for sampling extras and unknown fields, 400 for audio out",
    async ({ expect, s }) => {
      scriptAttemptsThenCheck(s.server);
      const post = (body: unknown) =>
        fetch(`${s.url}/v1/chat/completions`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
      const r = await post({
        ...ask(),
        top_k: 5,
        repetition_penalty: 1.2,
        prediction: { type: "content", content: "" },
        shiny: 1,
      });
      expect(r.status).toBe(200);
      expect(r.headers.get("x-conductor-ignored")).toBe(
        "top_k, repetition_penalty, prediction, shiny",
      );
      expect(await r.json()).toMatchObject({ choices: [{ message: { content: CHECKED } }] });
      const audio = await post({ ...ask(), modalities: ["text", "audio"] });
      expect(audio.status).toBe(400);
      expect(await audio.json()).toMatchObject({
        error: { code: "unsupported_parameter", param: "modalities" },
      });
      expect(s.server.requests.length).toBe(4);
    },
  );
});
