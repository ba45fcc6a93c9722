// `conductor-studio serve` as a child process, called with the official `openai` client as an
// evaluation harness would, against the local test server standing in for every model.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { APIError } from "openai";
import { describe, it } from "vitest";
import {
  ANSWER_A,
  ANSWER_B,
  ATTEMPTS_THEN_CHECK,
  CHECKED,
  CLI_TIMEOUT_MS,
  QUESTION,
  USAGE_TOTAL as TOTAL,
  ask,
  chatRequests,
  promptText,
  scriptAttemptsThenCheck,
  threeWorkerConfig,
} from "../../test-support/cli/cli-harness.ts";
import { importRun } from "../../engine/run/export.ts";
import { maxOverlap, readRuns, serveSuite } from "../../test-support/cli/serve-child.ts";

const STUDIO = "http://localhost:5173";
const SERVER_KEY = "sk-serve-test-5e1d0c9b7a";
const KEY_A = "sk-test-solver-a-77f3e2d901";
const ENV = { CS_SERVE_KEY: SERVER_KEY, CS_SOLVER_A_KEY: KEY_A };

describe("conductor-studio serve", { timeout: CLI_TIMEOUT_MS }, () => {
  const suite = serveSuite({
    config: (server) => threeWorkerConfig(server, {}, { a: "CS_SOLVER_A_KEY" }),
    args: ["--concurrency", "2", "--queue", "18", "--api-key-env", "CS_SERVE_KEY"].concat([
      "--max-body-bytes",
      "65536",
      "--cors",
      STUDIO,
    ]),
    env: ENV,
    apiKey: SERVER_KEY,
    server: { keys: { "solver-a": KEY_A } },
  });

  it("answers a question with the workflow's answer, the run's usage and, asked, its trace", async ({
    expect,
  }) => {
    scriptAttemptsThenCheck(suite.server);
    const body = { ...ask(), conductor_trace: true };
    const r = await suite.client.chat.completions.create(body);
    expect(r.object).toBe("chat.completion");
    expect(r.model).toBe("conductor");
    expect(r.choices[0]?.message).toMatchObject({ role: "assistant", content: CHECKED });
    expect(r.choices[0]?.finish_reason).toBe("stop");
    expect(r.usage).toEqual({
      prompt_tokens: TOTAL.p,
      completion_tokens: TOTAL.c,
      total_tokens: TOTAL.p + TOTAL.c,
    });
    const trace = (r as unknown as { conductor_trace: Record<string, unknown> }).conductor_trace;
    expect(trace).toMatchObject({
      status: "done",
      totals: { calls: 4, prompt_tokens: TOTAL.p },
      rounds: [
        {
          plan: { raw: ATTEMPTS_THEN_CHECK, usage: { prompt_tokens: 900 } },
          lists: {
            model_id: [0, 1, 2],
            access_list: [[], [], "all"],
            workerIds: ["w0", "w1", "w2"],
          },
          steps: [
            {
              worker_id: "w0",
              model_id: 0,
              worker_name: "Solver A",
              output: ANSWER_A,
              cost: expect.closeTo(0.00064, 12) as unknown,
            },
            {
              worker_id: "w1",
              model_id: 1,
              worker_name: "Solver B",
              output: ANSWER_B,
              usage: { completion_tokens: 30 },
            },
            {
              worker_id: "w2",
              model_id: 2,
              worker_name: "Checker",
              status: "done",
              output: CHECKED,
            },
          ],
        },
      ],
    });
    // Without asking, no trace.
    scriptAttemptsThenCheck(suite.server);
    const plain = await suite.client.chat.completions.create(ask());
    expect(plain).not.toHaveProperty("conductor_trace");
    expect(plain.choices[0]?.message.content).toBe(CHECKED);
  });

  it("lists the served model and answers /health", async ({ expect }) => {
    const models = await suite.client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["conductor"]);
    expect(await suite.client.models.retrieve("conductor")).toMatchObject({ id: "conductor" });
    const other = await suite.client.models.retrieve("gpt-5").catch((e: unknown) => e);
    expect(other).toMatchObject({ status: 404, code: "model_not_found" });
    const health = await fetch(`${suite.serve.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok" });
  });

  it("answers a browser's preflight for the allowed origin only", async ({ expect }) => {
    const preflight = (origin: string) =>
      fetch(`${suite.serve.url}/v1/chat/completions`, {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "authorization, content-type",
        },
      });
    const ok = await preflight(STUDIO);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(STUDIO);
    expect(ok.headers.get("access-control-allow-headers")).toBe("authorization, content-type");
    const other = await preflight("https://elsewhere.example");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const models = await fetch(`${suite.serve.url}/v1/models`, {
      headers: { Origin: STUDIO, Authorization: `Bearer ${SERVER_KEY}` },
    });
    expect(models.headers.get("access-control-allow-origin")).toBe(STUDIO);
  });

  it("shows earlier messages to the Conductor as context; the last user message is the question", async ({
    expect,
  }) => {
    scriptAttemptsThenCheck(suite.server);
    const r = await suite.client.chat.completions.create({
      model: "conductor",
      messages: [
        { role: "system", content: "Answer with a single number." },
        { role: "user", content: "What is the sum of the first 10 positive integers?" },
        { role: "assistant", content: "55" },
        { role: "user", content: QUESTION },
      ],
    });
    expect(r.choices[0]?.message.content).toBe(CHECKED);
    const plan = promptText(chatRequests(suite.server, "conductor-7b")[0]);
    expect(plan).toMatch(
      /CONVERSATION SO FAR[^\n]*\nSystem: Answer with a single number\.\n\nUser: What is the sum of the first 10 positive integers\?\n\nAssistant: 55\nEND OF CONVERSATION SO FAR/,
    );
    expect(plan).toContain(`USER QUESTION:\n${QUESTION}\nEND OF USER QUESTION`);
    expect(promptText(chatRequests(suite.server, "checker")[0])).toContain(
      `<overall_task>\n${QUESTION}\n</overall_task>`,
    );
  });

  it("answers 20 requests at once with at most --concurrency runs, and a 429 past the queue", async ({
    expect,
  }) => {
    // The first two runs are held long enough for all 20 requests to arrive and queue.
    const held = { content: ATTEMPTS_THEN_CHECK, latencyMs: 1500 };
    suite.server.script("conductor-7b", held, held);
    suite.server.setDefault("conductor-7b", { content: ATTEMPTS_THEN_CHECK, latencyMs: 10 });
    suite.server.setDefault("solver-a", { content: ANSWER_A, latencyMs: 5 });
    suite.server.setDefault("solver-b", { content: ANSWER_B, latencyMs: 5 });
    suite.server.setDefault("checker", (body) => ({
      content: `${promptText({ headers: {}, body }).length}`,
    }));
    const questions = Array.from(
      { length: 20 },
      (_, i) => `Question number ${i}: what is ${i} + ${i}?`,
    );
    const answers = Promise.all(questions.map((q) => suite.client.chat.completions.create(ask(q))));
    // 2 running and 18 waiting fill the server: the next request is turned away.
    await expect
      .poll(async () => (await (await fetch(`${suite.serve.url}/health`)).json()) as unknown, {
        interval: 5,
        timeout: 4000,
      })
      .toEqual({ status: "ok", running: 2, queued: 18 });
    const refused = await suite.client.chat.completions
      .create(ask("One too many?"))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(APIError);
    expect(refused).toMatchObject({ status: 429, code: "queue_full", type: "rate_limit_error" });
    const done = await answers;
    expect(done).toHaveLength(20);
    // Each answer belongs to its own question (the checker echoes the length of what it read).
    for (const [i, r] of done.entries()) {
      const seen = chatRequests(suite.server, "checker").find((q) =>
        promptText(q).includes(questions[i]!),
      );
      expect(r.choices[0]?.message.content).toBe(`${promptText(seen).length}`);
    }
    const runs = (await readRuns(suite.runs)).filter((l) => questions.includes(l.run.question));
    expect(runs).toHaveLength(20);
    expect(runs.every((l) => l.run.status === "done" && l.served.http_status === 200)).toBe(true);
    expect(maxOverlap(runs.map((l) => l.run))).toBe(2);
  });

  it("refuses a request without a user message (400) and a body over the limit (413)", async ({
    expect,
  }) => {
    const noUser = await suite.client.chat.completions
      .create({ model: "conductor", messages: [{ role: "system", content: "Be brief." }] })
      .catch((e: unknown) => e);
    expect(noUser).toMatchObject({ status: 400, code: "missing_user_message", param: "messages" });
    const big = await suite.client.chat.completions
      .create(ask("x".repeat(100_000)))
      .catch((e: unknown) => e);
    expect(big).toMatchObject({ status: 413, code: "request_too_large" });
    const notJson = await fetch(`${suite.serve.url}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${SERVER_KEY}`, "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({
      error: {
        message: expect.any(String) as unknown,
        type: "invalid_request_error",
        code: "invalid_json",
        param: null,
      },
    });
    expect(suite.server.requests).toHaveLength(0); // nothing reached a model
  });

  it("refuses a wrong or missing server key with 401", async ({ expect }) => {
    for (const key of ["sk-wrong-key", "none"]) {
      const r = await suite.serve
        .client(key)
        .chat.completions.create(ask())
        .catch((e: unknown) => e);
      expect(r).toMatchObject({ status: 401, code: "invalid_api_key" });
    }
    const models = await suite.serve
      .client("sk-wrong-key")
      .models.list()
      .catch((e: unknown) => e);
    expect(models).toMatchObject({ status: 401 });
    expect(suite.server.requests).toHaveLength(0);
  });

  it("answers 502 with the reason for a plan that cannot be parsed, streaming or not", async ({
    expect,
  }) => {
    const raw = 'model_id = [0, 1]\nsubtasks = ["Solve it.", "Check it and give the';
    suite.server.setDefault("conductor-7b", raw);
    const plain = await suite.client.chat.completions.create(ask()).catch((e: unknown) => e);
    expect(plain).toMatchObject({ status: 502, code: "plan_error", type: "server_error" });
    expect((plain as APIError).headers?.get("x-should-retry")).toBe("false");
    expect((plain as Error).message).toContain("unparseable_list");
    // A stream opens at once, so the failure arrives as its error event.
    const stream = await suite.client.chat.completions.create({ ...ask(), stream: true });
    const streamed = await (async () => {
      for await (const chunk of stream) void chunk;
    })().catch((e: unknown) => e);
    expect(streamed).toMatchObject({ code: "plan_error", type: "server_error" });
  });

  it("answers 502 naming the failed worker, without its key", async ({ expect }) => {
    suite.server.script("conductor-7b", ATTEMPTS_THEN_CHECK);
    suite.server.script("solver-b", ANSWER_B);
    suite.server.script("solver-a", {
      status: 401,
      errorMessage: `Incorrect API key provided: ${KEY_A}. Find your key in the dashboard.`,
    });
    const r = await suite.client.chat.completions.create(ask()).catch((e: unknown) => e);
    expect(r).toMatchObject({ status: 502, code: "upstream_auth" });
    const message = (r as Error).message;
    expect(message).toContain("Step 1 (Solver A) failed (auth)");
    expect(message).not.toContain(KEY_A);
    expect(chatRequests(suite.server, "checker")).toHaveLength(0);
  });

  it("writes no key into its log or its run records, each line an importable export", async ({
    expect,
  }) => {
    const [file] = await readdir(suite.runs);
    const raw = await readFile(join(suite.runs, file ?? ""), "utf8");
    const lines = raw.split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) expect(importRun(line).ok).toBe(true);
    for (const secret of [SERVER_KEY, KEY_A]) {
      expect(suite.serve.stderr() + raw).not.toContain(secret);
    }
  });
});
