// `conductor-studio run` against providers as they really answer: each worker replays a fixture
// from e2e/server/fixtures/ (raw SSE written from that provider's documentation), over real HTTP.
// Ctrl-C is sent to a child process (runCli); the rest run main in this process (runMain).
import type { ChildProcess } from "node:child_process";
import { describe } from "vitest";
import type { ReplySpec, TestServer } from "../../e2e/server/server.ts";
import {
  cliIt,
  CLI_TIMEOUT_MS,
  QUESTION,
  chatRequests,
  promptText,
  readExport,
  runCli,
  runMain,
} from "../test-support/cli/cli-harness.ts";
import type { Harness } from "../test-support/cli/cli-harness.ts";

interface Worker {
  name: string;
  replies: ReplySpec[];
  extraBody?: Record<string, unknown>;
}

/** A plan with one step per worker: all independent, or the last one seeing all the others. */
function planFor(n: number, lastSeesAll: boolean): string {
  const ids = Array.from({ length: n }, (_, i) => i);
  const access = ids.map((i) => (lastSeesAll && i === n - 1 ? '["all"]' : "[]"));
  return `Each model answers on its own${lastSeesAll ? ", then the last one checks" : ""}.
model_id = [${ids.join(", ")}]
subtasks = [${ids.map((i) => `"Answer part ${i + 1}: is 391 prime?"`).join(", ")}]
access_list = [${access.join(", ")}]`;
}

async function runWith(
  h: Harness,
  workers: Worker[],
  conductor: ReplySpec,
  extra: Record<string, unknown> = {},
  onSpawn?: (child: ChildProcess) => void,
) {
  const server: TestServer = h.server;
  server.script("conductor-7b", conductor);
  for (const w of workers) server.script(w.name, ...w.replies);
  const config = {
    conductor: { baseURL: server.baseURL, model: "conductor-7b" },
    workers: workers.map((w) => ({
      name: w.name,
      baseURL: server.baseURL,
      model: w.name,
      ...(w.extraBody ? { extraBody: w.extraBody } : {}),
    })),
    maxSteps: 8,
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
    ...extra,
  };
  const path = await h.file("config.json", config);
  const args = ["run", "--config", path, "--question", QUESTION];
  // A test that signals the process gets a child process; the rest run main in this one.
  return onSpawn ? runCli(args, { onSpawn }) : runMain(args);
}

describe("conductor-studio run against provider quirks", { timeout: CLI_TIMEOUT_MS }, () => {
  cliIt(
    "keeps every provider's reasoning out of the answers and records it",
    async ({ expect, h }) => {
      const workers = [
        { name: "deepseek", replies: [{ fixture: "deepseek-reasoning-content.sse" }] },
        { name: "magistral", replies: [{ fixture: "mistral-magistral-parts.sse" }] },
        { name: "r1-distill", replies: [{ fixture: "deepseek-r1-unopened-think.sse" }] },
        { name: "qwen3", replies: [{ fixture: "qwen3-think-tags.sse" }] },
      ];
      const conductor = {
        reasoning: ["PLAN-THOUGHT: three models, ", "the last one checks."],
        reasoningField: "reasoning" as const,
        content: planFor(4, true),
      };
      const r = await runWith(h, workers, conductor);
      expect(r.stderr).toMatch(/^\[run\] done/m);
      expect(r.code).toBe(0);
      const run = readExport(r.stdout).run;
      const round = run.rounds[0]!;
      expect(round.plan?.reasoning).toBe("PLAN-THOUGHT: three models, the last one checks.");
      expect(round.plan?.raw).not.toContain("PLAN-THOUGHT");
      expect(round.steps.map((s) => s.output)).toEqual([
        "17 × 23 = 391, so 391 is not prime.",
        "391 = 17 × 23, so it is not prime.",
        "No: 391 = 17 × 23.",
        "391 is not prime: 17 × 23.",
      ]);
      expect(round.steps.map((s) => s.reasoning?.slice(0, 12))).toEqual([
        "The user ask",
        "391 is odd; ",
        "Okay, is 391",
        "Okay, 391: t",
      ]);
      expect(round.steps[0]?.usage?.reasoningTokens).toBe(44);
      expect(run.answer).toBe("391 is not prime: 17 × 23.");
      // The checker read both answers and none of the reasoning.
      const seen = promptText(chatRequests(h.server, "qwen3")[0]);
      expect(seen).toContain("17 × 23 = 391, so 391 is not prime.");
      expect(seen).toContain("391 = 17 × 23, so it is not prime.");
      expect(seen).toContain("No: 391 = 17 × 23.");
      expect(seen).not.toMatch(
        /The user asks|391 is odd|Okay, is 391|think>|PLAN-THOUGHT|object Object/,
      );
    },
  );

  cliIt(
    "reads usage wherever providers put it and keeps a provider's cost",
    async ({ expect, h }) => {
      const workers = [
        { name: "groq", replies: [{ fixture: "groq-reasoning-xgroq.sse" }] },
        { name: "llamacpp", replies: [{ fixture: "llamacpp-timings.sse" }] },
        { name: "every-chunk", replies: [{ fixture: "usage-every-chunk.sse" }] },
        { name: "openrouter", replies: [{ fixture: "openrouter-reasoning.sse" }] },
        { name: "parts", replies: [{ fixture: "content-parts.sse" }] },
      ];
      const r = await runWith(h, workers, { content: planFor(5, false), usage: false });
      expect(r.code).toBe(0);
      const run = readExport(r.stdout).run;
      const steps = run.rounds[0]!.steps;
      expect(steps.map((s) => [s.usage?.promptTokens, s.usage?.completionTokens])).toEqual([
        [33, 27],
        [42, 9],
        [50, 3],
        [30, 40],
        [12, 8],
      ]);
      expect(steps.every((s) => s.usage?.estimated === false)).toBe(true);
      expect(steps[3]?.cost).toBe(0.0000423);
      expect(steps[4]?.output).toBe("391 = 17 × 23.");
      // Only the Conductor, which sent no usage, is estimated, and the totals say so.
      expect(run.rounds[0]?.plan?.usage?.estimated).toBe(true);
      expect(run.totals.estimated).toBe(true);
    },
  );

  cliIt(
    "retries errors sent inside a 200 stream by their code and fails fast on a 4xx",
    async ({ expect, h }) => {
      const ok = { content: "Recovered.", usage: { prompt_tokens: 5, completion_tokens: 1 } };
      const workers = [
        { name: "or-502", replies: [{ fixture: "openrouter-error-midstream.sse" }, ok] },
        { name: "ev-429", replies: [{ fixture: "event-error-429.sse" }, ok] },
        { name: "ev-overloaded", replies: [{ fixture: "event-error-overloaded.sse" }, ok] },
        { name: "in-400", replies: [{ fixture: "stream-error-400.sse" }, ok] },
        { name: "http-413", replies: [{ status: 413, errorMessage: "Request too large" }, ok] },
        {
          name: "gemini-key",
          replies: [
            { status: 400, errorMessage: "API key not valid. Please pass a valid API key." },
          ],
        },
      ];
      const r = await runWith(h, workers, { content: planFor(6, false) });
      expect(r.code).toBe(1);
      const calls = (m: string) => chatRequests(h.server, m).length;
      expect(workers.map((w) => calls(w.name))).toEqual([2, 2, 2, 1, 1, 1]);
      const run = readExport(r.stdout).run;
      const steps = run.rounds[0]!.steps;
      expect(steps.map((s) => s.status)).toEqual([
        "done",
        "done",
        "done",
        "failed",
        "failed",
        "failed",
      ]);
      expect(steps.map((s) => s.error?.code ?? null)).toEqual([
        null,
        null,
        null,
        "bad_request",
        "request_too_large",
        "auth",
      ]);
      expect(steps[3]?.error?.message).toMatch(/max_tokens must be at most 8192/);
      expect(r.stderr).toMatch(
        /\[step 1\] .*502 inside the stream.*upstream connect error.* Retrying/,
      );
      expect(r.stderr).toMatch(/\[step 2\] .*429 inside the stream.* Retrying/);
    },
  );

  cliIt(
    "sends a worker's extra request fields and refuses ones that replace the call",
    async ({ expect, h }) => {
      const extraBody = {
        chat_template_kwargs: { enable_thinking: false },
        reasoning_effort: "low",
      };
      const workers = [{ name: "qwen3-direct", replies: [{ content: "No." }], extraBody }];
      const r = await runWith(h, workers, { content: planFor(1, false) });
      expect(r.code).toBe(0);
      expect(chatRequests(h.server, "qwen3-direct")[0]?.body).toMatchObject({
        ...extraBody,
        model: "qwen3-direct",
        stream: true,
      });

      const bad = [{ name: "bad", replies: [], extraBody: { model: "other", messages: [] } }];
      const refused = await runWith(h, bad, { content: planFor(1, false) });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/cannot override "model", "messages"/);
      expect(chatRequests(h.server, "bad")).toEqual([]);
    },
  );

  cliIt(
    "stops the worker's HTTP request on Ctrl-C, while it waits for the first byte",
    async ({ expect, h }) => {
      const workers = [{ name: "slow", replies: [{ content: "never sent", latencyMs: 15_000 }] }];
      let child: ChildProcess | undefined;
      const running = runWith(h, workers, { content: planFor(1, false) }, {}, (c) => (child = c));
      await expect.poll(() => chatRequests(h.server, "slow").length, { timeout: 10_000 }).toBe(1);
      child?.kill("SIGINT");
      const r = await running;
      expect(r.stderr).toMatch(/^\[step 1\] cancelled$/m);
      expect(r.stderr).toMatch(/^\[run\] cancelled/m);
      expect(r.code).toBe(1);
      await expect
        .poll(() => h.server.disconnects)
        .toEqual([expect.objectContaining({ model: "slow", phase: "waiting" })]);
    },
  );
});
