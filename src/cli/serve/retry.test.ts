// `serve` against the official `openai` client with its default retries (2, as harnesses leave
// them): a failure that a retry cannot fix says so, so one request stays one run upstream.
import OpenAI, { APIError } from "openai";
import { describe, it } from "vitest";
import { CHECKED, CLI_TIMEOUT_MS, ask, chatRequests } from "../../test-support/cli/cli-harness.ts";
import { serveInProcess, serveIt } from "../../test-support/cli/serve-in-process.ts";

/** A one-step plan: Solver A answers alone. */
const SOLVER_A_ALONE = `One model is enough.
model_id = [0]
subtasks = ["Answer the question."]
access_list = [[]]`;

/** The engine's own retries off, so each test counts the client's alone. */
const NO_ENGINE_RETRY = { retry: { maxAttempts: 1 } };

async function failure(p: Promise<unknown>): Promise<APIError> {
  const e = await p.then(
    () => new Error("expected the request to fail"),
    (e: unknown) => e,
  );
  if (!(e instanceof APIError)) throw e;
  return e;
}

describe("serve answers what a retry cannot fix as final", { timeout: CLI_TIMEOUT_MS }, () => {
  serveIt.for<[string, { status: number; errorMessage?: string }, number, string]>([
    ["a refused key", { status: 401 }, 502, "upstream_auth"],
    [
      "a bad request",
      { status: 400, errorMessage: "Unknown field 'foo'." },
      502,
      "upstream_bad_request",
    ],
    ["an unknown upstream model", { status: 404 }, 502, "upstream_not_found"],
    [
      "a question over the context window",
      { status: 400, errorMessage: "This model's maximum context length is 8192 tokens." },
      400,
      "context_length_exceeded",
    ],
  ])(
    "%s: one plan and one worker call reach the upstream",
    async ([, reply, status, code], { expect, s }) => {
      s.server.setDefault("conductor-7b", SOLVER_A_ALONE);
      s.server.setDefault("solver-a", reply);
      const e = await failure(s.client().chat.completions.create(ask()));
      expect(e).toMatchObject({ status, code });
      expect(e.headers?.get("x-should-retry")).toBe("false");
      expect(chatRequests(s.server, "conductor-7b")).toHaveLength(1);
      expect(chatRequests(s.server, "solver-a")).toHaveLength(1);
    },
  );

  serveIt("a Conductor whose key is refused: one call, no retry", async ({ expect, s }) => {
    s.server.setDefault("conductor-7b", { status: 403 });
    const e = await failure(s.client().chat.completions.create(ask()));
    expect(e).toMatchObject({ status: 502, code: "upstream_auth" });
    expect(e.message).toContain("The Conductor's call failed (auth)");
    // The command line's own words, not the studio's screens.
    expect(e.message).not.toContain("Settings →");
    expect(e.message).toContain("conductor.apiKeyEnv");
    expect(chatRequests(s.server, "conductor-7b")).toHaveLength(1);
  });

  it("an upstream 429 becomes a 429 with the provider's Retry-After", async ({
    expect,
    onTestFinished,
  }) => {
    const s = await serveInProcess(onTestFinished, { config: NO_ENGINE_RETRY });
    s.server.setDefault("conductor-7b", SOLVER_A_ALONE);
    s.server.setDefault("solver-a", { status: 429, retryAfter: "7" });
    const e = await failure(s.client({ maxRetries: 0 }).chat.completions.create(ask()));
    expect(e).toMatchObject({
      status: 429,
      code: "upstream_rate_limited",
      type: "rate_limit_error",
    });
    expect(e.headers?.get("retry-after")).toBe("7");
    expect(e.headers?.get("x-should-retry")).toBe("true");
  });

  it("a server error upstream may be retried, and the client's retry then succeeds", async ({
    expect,
    onTestFinished,
  }) => {
    const s = await serveInProcess(onTestFinished, { config: NO_ENGINE_RETRY });
    s.server.script("conductor-7b", SOLVER_A_ALONE, SOLVER_A_ALONE);
    s.server.script("solver-a", { status: 500 }, CHECKED);
    const client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: "none", maxRetries: 1 });
    const raw = await client.chat.completions.create(ask()).withResponse();
    expect(raw.data.choices[0]?.message.content).toBe(CHECKED);
    expect(chatRequests(s.server, "solver-a")).toHaveLength(2);
  });

  it("a worker's stream that stalls past idleTimeoutMs is 504 upstream_timeout", async ({
    expect,
    onTestFinished,
  }) => {
    const s = await serveInProcess(onTestFinished, {
      config: { ...NO_ENGINE_RETRY, idleTimeoutMs: 150 },
    });
    s.server.setDefault("conductor-7b", SOLVER_A_ALONE);
    s.server.setDefault("solver-a", { chunks: ["Thinking", " it over"], chunkDelayMs: 5_000 });
    const e = await failure(s.client({ maxRetries: 0 }).chat.completions.create(ask()));
    expect(e).toMatchObject({ status: 504, code: "upstream_timeout" });
    expect(e.message).toContain("idle time-out");
  });

  serveIt("requests the server refuses say so too", async ({ expect, s }) => {
    const client = s.client();
    const other = await failure(client.chat.completions.create({ ...ask(), model: "gpt-5" }));
    expect(other).toMatchObject({ status: 404, code: "model_not_found", param: "model" });
    const tools = await failure(
      client.chat.completions.create({
        ...ask(),
        tools: [{ type: "function", function: { name: "f", parameters: {} } }],
      }),
    );
    expect(tools).toMatchObject({ status: 400, code: "unsupported_parameter", param: "tools" });
    expect(tools.headers?.get("x-should-retry")).toBe("false");
    const format = await failure(
      client.chat.completions.create({ ...ask(), response_format: { type: "json_object" } }),
    );
    expect(format).toMatchObject({ code: "unsupported_parameter", param: "response_format" });
    const n = await failure(client.chat.completions.create({ ...ask(), n: 3 }));
    expect(n).toMatchObject({ code: "unsupported_parameter", param: "n" });
    expect(s.server.requests).toHaveLength(0);
  });
});
