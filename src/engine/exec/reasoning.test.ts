// Reasoning through a whole run: streamed as its own events, recorded per step and for the plan,
// exported and imported, and never read by a later step or kept in the answer. Retries show as
// state with attempt, total and reason, and the dropped attempt's text is abandoned.
import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { ChatRequest } from "../llm/types.ts";
import { LlmError } from "../llm/types.ts";
import { exportRun, importRun } from "../run/export.ts";
import { applyEvent, recordOf } from "../run/record.ts";
import { totalsOf } from "../run/totals.ts";
import type { RunEvent } from "../schema/events.ts";
import type { Pool } from "../schema/worker.ts";
import { ConductorConfigSchema, WorkerSchema } from "../schema/worker.ts";
import { runConductor } from "./simple-runs.ts";
import { drain } from "../../test-support/engine/exec/collect-events.ts";

const question = "Is 391 prime?";
const pool: Pool = [
  WorkerSchema.parse({
    id: "w0",
    name: "Thinker",
    model: "qwen3-32b",
    extraBody: { chat_template_kwargs: { enable_thinking: true } },
  }),
  WorkerSchema.parse({ id: "w1", name: "Checker", model: "checker" }),
];
const conductor = ConductorConfigSchema.parse({ model: "conductor-7b" });
const plan = `model_id = [0, 1]
subtasks = ["Factor 391.", "Check the factorisation and answer."]
access_list = [[], ["all"]]`;
const THOUGHT = "SECRET-THOUGHT: try 17, since 17 × 23 = 391.";
const PLAN_THOUGHT = "PLAN-THOUGHT: two steps suffice.";
const fastRetry = { baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 0, random: () => 0.5 };

type Backend = ReturnType<typeof createFakeBackend>;

/** Runs the question on `pool` to the end and returns every event; "w0" runs on `thinker`. */
function runAll(
  conductorBackend: Backend,
  workers: { thinker: Backend; checker: Backend },
  retry: typeof fastRetry & { maxAttempts?: number } = fastRetry,
): Promise<RunEvent[]> {
  return drain(
    runConductor({
      question,
      pool,
      conductor,
      conductorBackend,
      backendFor: (w) => (w.id === "w0" ? workers.thinker : workers.checker),
      signal: new AbortController().signal,
      retry,
    }),
  );
}

/** Everything a request showed the model, joined. */
const seen = (r: ChatRequest | undefined) => r?.messages.map((m) => m.content).join("\n");

function setup() {
  const conductorBackend = createFakeBackend([{ reasoning: [PLAN_THOUGHT], text: plan }]);
  const thinker = createFakeBackend([
    { reasoning: ["SECRET-THOUGHT: try 17, ", "since 17 × 23 = 391."], text: "391 = 17 × 23." },
  ]);
  const checker = createFakeBackend([
    {
      chunks: ["half an answ", "er"],
      error: new LlmError("rate_limited", "", 429),
      failAfterChunks: 1,
    },
    { reasoning: ["checker thinks"], text: "Not prime: 17 × 23." },
  ]);
  return { conductorBackend, thinker, checker };
}

describe("reasoning in a run", () => {
  it("streams, records and exports reasoning but never passes it on", async () => {
    const { conductorBackend, thinker, checker } = setup();
    const events = await runAll(conductorBackend, { thinker, checker });
    const types = events.map((e) => e.type);
    expect(types).toContain("plan_reasoning");
    expect(types.filter((t) => t === "step_reasoning").length).toBe(3);

    // The checker reads step 1's answer, not its reasoning; the extra body reaches the request.
    expect(seen(checker.calls.at(-1))).toContain("391 = 17 × 23.");
    expect(seen(checker.calls.at(-1))).not.toContain("SECRET-THOUGHT");
    expect(thinker.calls[0]?.extraBody).toEqual({
      chat_template_kwargs: { enable_thinking: true },
    });

    const record = recordOf(events);
    const round = record.rounds[0]!;
    expect(round.plan?.reasoning).toBe(PLAN_THOUGHT);
    expect(round.plan?.raw).toBe(plan);
    expect(round.steps.map((s) => [s.output, s.reasoning])).toEqual([
      ["391 = 17 × 23.", THOUGHT],
      ["Not prime: 17 × 23.", "checker thinks"],
    ]);
    expect(record.answer).toBe("Not prime: 17 × 23.");
    expect(round.steps[1]?.retry).toBeUndefined();

    const imported = importRun(exportRun(record));
    expect(imported.ok && imported.record.rounds[0]?.plan?.reasoning).toBe(PLAN_THOUGHT);
    expect(imported.ok && imported.record.rounds[0]?.steps.map((s) => s.reasoning)).toEqual([
      THOUGHT,
      "checker thinks",
    ]);
    expect(imported.ok && imported.record).toEqual(JSON.parse(JSON.stringify(record)));
  });

  it("shows a retry with attempt, total and reason, and abandons the dropped attempt's text", async () => {
    const { conductorBackend, thinker, checker } = setup();
    const events = await runAll(
      conductorBackend,
      { thinker, checker },
      { ...fastRetry, maxAttempts: 4 },
    );
    const retry = events.find((e) => e.type === "step_retry");
    expect(retry).toMatchObject({ step: 1, attempt: 2, of: 4, code: "rate_limited", status: 429 });

    // Fold up to the retry: the step waits to retry and its partial text is still there (marked by
    // `retry`); the next attempt's start clears it.
    const at = events.indexOf(retry!);
    const waiting = recordOf(events.slice(0, at + 1)).rounds[0]!.steps[1]!;
    expect(waiting.retry).toMatchObject({ attempt: 2, of: 4, status: 429, code: "rate_limited" });
    expect(waiting.output).toBe("half an answ");
    const restart = events.findIndex((e, i) => i > at && e.type === "step_start");
    const restarted = applyEvent(recordOf(events.slice(0, at + 1)), events[restart]!);
    expect(restarted.rounds[0]!.steps[1]).toMatchObject({ output: "", attempts: 2 });
    expect(restarted.rounds[0]!.steps[1]!.retry).toBeUndefined();
  });

  it("counts a plan retry and starts the plan's reasoning over", async () => {
    const conductorBackend = createFakeBackend([
      { reasoning: ["lost thought"], error: new LlmError("server", "", 503) },
      { reasoning: [PLAN_THOUGHT], text: plan },
    ]);
    const { thinker, checker } = setup();
    const events = await runAll(conductorBackend, { thinker, checker });
    expect(events.find((e) => e.type === "plan_retry")).toMatchObject({ attempt: 2, status: 503 });
    expect(recordOf(events).rounds[0]?.plan?.reasoning).toBe(PLAN_THOUGHT);
  });

  it("moves a block the prompt opened to reasoning as soon as its bare </think> streams in", async () => {
    // DeepSeek-R1's chat template opens the block, so the completion streams it as content.
    const conductorBackend = createFakeBackend([
      { chunks: ["PLAN-THOUGHT: two steps", " suffice.</", "think>\n", plan] },
    ]);
    const thinker = createFakeBackend([
      {
        chunks: [
          "SECRET-THOUGHT: try 17, ",
          "since 17 × 23 = 391.\n</th",
          "ink>\n\nANSWER: ",
          "391 = 17 × 23.",
        ],
      },
    ]);
    const checker = createFakeBackend([{ text: "Not prime." }]);
    const events = await runAll(conductorBackend, { thinker, checker });
    expect(events.filter((e) => "reclassified" in e && e.reclassified)).toMatchObject([
      { type: "plan_reasoning", text: "PLAN-THOUGHT: two steps suffice." },
      { type: "step_reasoning", step: 0, text: "SECRET-THOUGHT: try 17, since 17 × 23 = 391.\n" },
    ]);

    // Folded event by event, as the screen sees it: the tag never shows, and once the answer after
    // it does, the reasoning is gone from the output and sits in the Thinking part.
    let record = recordOf([]);
    for (const e of events) {
      record = applyEvent(record, e);
      const round = record.rounds[0];
      const raw = round?.plan?.raw ?? "";
      const output = round?.steps[0]?.output ?? "";
      expect(raw + output).not.toContain("</");
      if (raw.includes("model_id")) expect(raw).not.toContain("PLAN-THOUGHT");
      if (output.includes("ANSWER")) {
        expect(output).not.toContain("SECRET");
        expect(round?.steps[0]?.reasoning).toContain("SECRET-THOUGHT");
      }
    }
    const round = record.rounds[0]!;
    expect(round.plan).toMatchObject({ raw: plan, reasoning: "PLAN-THOUGHT: two steps suffice." });
    expect(round.steps[0]).toMatchObject({
      output: "ANSWER: 391 = 17 × 23.",
      reasoning: "SECRET-THOUGHT: try 17, since 17 × 23 = 391.\n",
    });
    expect(seen(checker.calls[0])).toContain("ANSWER: 391 = 17 × 23.");
    expect(seen(checker.calls[0])).not.toContain("SECRET-THOUGHT");
  });

  it("sums the reasoning tokens the calls report into the run's totals", async () => {
    const used = (reasoningTokens?: number) => ({
      promptTokens: 50,
      completionTokens: 80,
      estimated: false,
      ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
    });
    const conductorBackend = createFakeBackend([{ text: plan, usage: used(20) }]);
    const thinker = createFakeBackend([{ text: "391 = 17 × 23.", usage: used(60) }]);
    const checker = createFakeBackend([{ text: "Not prime.", usage: used() }]);
    const events = await runAll(conductorBackend, { thinker, checker });
    const record = recordOf(events);
    expect(record.totals).toMatchObject({ completionTokens: 240, reasoningTokens: 80, calls: 3 });
    // Counted as the calls finished, and the same when derived from the finished record.
    expect(totalsOf(record)).toEqual(record.totals);
    const streaming = recordOf(events.filter((e) => e.type !== "run_finish"));
    expect(streaming.totals.reasoningTokens).toBe(80);
  });
});
