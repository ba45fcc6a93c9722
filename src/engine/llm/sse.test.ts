import { describe, expect, it } from "vitest";
import type { SseFrame } from "./sse.ts";
import { readSse } from "./sse.ts";

function body(parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const p of parts) controller.enqueue(encoder.encode(p));
      controller.close();
    },
  });
}

async function frames(parts: string[]) {
  const out: SseFrame[] = [];
  for await (const f of readSse(body(parts))) out.push(f);
  return out;
}

describe("readSse", () => {
  it("reads named events, multi-line data and comments, across any chunking", async () => {
    const text =
      ': ping\n\ndata: {"a":1}\n\nevent: error\ndata: one\ndata: two\n\ndata: [DONE]\n\n';
    const expected = [
      { event: null, data: '{"a":1}' },
      { event: "error", data: "one\ntwo" },
      { event: null, data: "[DONE]" },
    ];
    for (let cut = 0; cut <= text.length; cut++) {
      expect(await frames([text.slice(0, cut), text.slice(cut)])).toEqual(expected);
    }
  });

  it("accepts CRLF and CR line ends and a last frame without its blank line", async () => {
    expect(await frames(["data: a\r\n\r\ndata: b\r\rdata: c"])).toEqual([
      { event: null, data: "a" },
      { event: null, data: "b" },
      { event: null, data: "c" },
    ]);
  });
});
