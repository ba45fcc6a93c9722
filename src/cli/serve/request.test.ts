import { describe, it } from "vitest";
import { parseChatRequest } from "./request.ts";

describe("parseChatRequest", () => {
  it("takes the last user message as the question and earlier ones as context", ({ expect }) => {
    const r = parseChatRequest({
      model: "conductor",
      messages: [
        { role: "system", content: "Reply with a letter." },
        {
          role: "user",
          content: [
            { type: "text", text: "First" },
            { type: "text", text: "part" },
          ],
        },
        { role: "assistant", content: null },
        { role: "user", content: "Which is prime? A) 4 B) 7" },
      ],
      stream: true,
      stream_options: { include_usage: true },
      conductor_trace: true,
      temperature: 0,
    });
    expect(r).toEqual({
      ok: true,
      request: {
        model: "conductor",
        question: "Which is prime? A) 4 B) 7",
        context: [
          { role: "system", content: "Reply with a letter." },
          { role: "user", content: "First\npart" },
        ],
        stream: true,
        includeUsage: true,
        trace: true,
        // Sampling is the pool config's: the request's temperature is named back as ignored.
        ignored: ["temperature"],
      },
    });
  });

  it("passes fields that ask for nothing the workflow cannot do", ({ expect }) => {
    const r = parseChatRequest({
      messages: [{ role: "user", content: "q" }],
      n: 1,
      tools: [],
      tool_choice: "none",
      response_format: { type: "text" },
      logprobs: false,
    });
    expect(r.ok).toBe(true);
  });

  it.for<[unknown, number, string, string]>([
    [{ messages: [{ role: "system", content: "hi" }] }, 400, "missing_user_message", "messages"],
    [{ messages: [{ role: "user", content: "  " }] }, 400, "missing_user_message", "messages"],
    [{ messages: [] }, 400, "invalid_request", "messages"],
    [{}, 400, "invalid_request", "messages"],
    [{ messages: [{ role: "user", content: "q" }], n: 2 }, 400, "unsupported_parameter", "n"],
    [
      { messages: [{ role: "user", content: "q" }], tools: [{}] },
      400,
      "unsupported_parameter",
      "tools",
    ],
    [
      { messages: [{ role: "user", content: "q" }], tool_choice: "required" },
      400,
      "unsupported_parameter",
      "tool_choice",
    ],
    [
      { messages: [{ role: "user", content: "q" }], response_format: { type: "json_object" } },
      400,
      "unsupported_parameter",
      "response_format",
    ],
    [
      { messages: [{ role: "user", content: "q" }], logprobs: true },
      400,
      "unsupported_parameter",
      "logprobs",
    ],
    [
      { messages: [{ role: "user", content: [{ type: "image_url", image_url: {} }] }] },
      400,
      "unsupported_content",
      "messages[0].content",
    ],
  ])("refuses %j", ([body, status, code, param], { expect }) => {
    const r = parseChatRequest(body);
    expect(r.ok ? null : r.error).toMatchObject({ status, code, param });
  });
});
