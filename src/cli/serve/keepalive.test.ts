// A streamed answer opens at once and stays alive: headers and the role chunk before the Conductor
// has answered, then an SSE comment for every keep-alive interval with nothing else sent. The
// interval is a tick the test fires, so nothing here waits on a clock.
import { describe } from "vitest";
import {
  ANSWER_A,
  ANSWER_B,
  ATTEMPTS_THEN_CHECK,
  CHECKED,
  CLI_TIMEOUT_MS,
  ask,
} from "../../test-support/cli/cli-harness.ts";
import { serveIt } from "../../test-support/cli/serve-in-process.ts";

/** Reads a fetch body chunk by chunk as text. */
function reader(body: ReadableStream<Uint8Array>) {
  const r = body.getReader();
  const decoder = new TextDecoder();
  return async () => {
    const { value, done } = await r.read();
    return done ? null : decoder.decode(value);
  };
}

describe("serve keeps a stream alive", { timeout: CLI_TIMEOUT_MS }, () => {
  serveIt(
    "sends headers and the first chunk at once, while the Conductor still plans",
    async ({ expect, s }) => {
      let planning!: () => void;
      const reached = new Promise<void>((resolve) => (planning = resolve));
      s.server.script("conductor-7b", () => {
        planning();
        return { content: ATTEMPTS_THEN_CHECK, latencyMs: 30_000 };
      });
      const abort = new AbortController();
      const res = await fetch(`${s.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ ...ask(), stream: true }),
        signal: abort.signal,
      });
      // fetch resolved with the headers: the Conductor, held for 30 s, has not answered.
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/event-stream");
      const next = reader(res.body!);
      expect(await next()).toContain('"role":"assistant"');
      await reached;
      // The first tick finds the role chunk sent in its interval; the second finds nothing since.
      s.tick();
      s.tick();
      expect(await next()).toBe(": keep-alive\n\n");
      expect(s.ticking()).toBe(1);
      abort.abort();
      await s.running.shutdown(0);
      expect(s.ticking()).toBe(0);
    },
  );

  serveIt(
    "comments while earlier steps run, and the client reads the answer as usual",
    async ({ expect, s }) => {
      const quiet = () => {
        s.tick();
        s.tick();
      };
      s.server.script("conductor-7b", () => (quiet(), ATTEMPTS_THEN_CHECK));
      s.server.script("solver-a", () => (quiet(), ANSWER_A));
      s.server.script("solver-b", ANSWER_B);
      s.server.script("checker", { chunks: ["Both attempts ", "agree. The sum is 5050."] });
      const res = await fetch(`${s.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ ...ask(), stream: true }),
      });
      const text = await res.text();
      const comments = text.split("\n\n").filter((f) => f.startsWith(":"));
      expect(comments.length).toBeGreaterThanOrEqual(2);
      // Every comment came before the answer's first token.
      expect(text.lastIndexOf(": keep-alive")).toBeLessThan(text.indexOf("Both attempts"));
      expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
      expect(s.ticking()).toBe(0);

      // The official client skips the comments.
      s.server.script("conductor-7b", () => (quiet(), ATTEMPTS_THEN_CHECK));
      s.server.script("solver-a", ANSWER_A);
      s.server.script("solver-b", ANSWER_B);
      s.server.script("checker", CHECKED);
      const stream = await s.client().chat.completions.create({ ...ask(), stream: true });
      let answer = "";
      for await (const chunk of stream) answer += chunk.choices[0]?.delta.content ?? "";
      expect(answer).toBe(CHECKED);
    },
  );

  serveIt("sends no comment in an interval that carried other bytes", async ({ expect, s }) => {
    s.server.script("conductor-7b", ATTEMPTS_THEN_CHECK);
    s.server.script("solver-a", ANSWER_A);
    s.server.script("solver-b", ANSWER_B);
    // One tick after the opening chunk: that interval carried bytes, so it needs no comment.
    s.server.script("checker", () => {
      s.tick();
      return CHECKED;
    });
    const res = await fetch(`${s.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ...ask(), stream: true }),
    });
    expect(await res.text()).not.toContain(": keep-alive");
  });
});
