// The planner's guards: a repetition loop is stopped, and a prompt must fit the context window.
import { describe, expect, it } from "vitest";
import { cutMarker } from "../conductor/context.ts";
import { repetitionLoop } from "../conductor/loop.ts";
import { buildRefinementMessage } from "../conductor/refine.ts";
import type { FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { ChatBackend } from "../llm/types.ts";
import type { RunEvent } from "../schema/events.ts";
import type { ChatMessage } from "../schema/usage.ts";
import type { PlanOutcome } from "./plan.ts";
import { planRound } from "./plan.ts";

const LISTS = `model_id = [0]\nsubtasks = ["Answer it."]\naccess_list = [[]]`;
const QUESTION: ChatMessage[] = [
  { role: "system", content: "You coordinate." },
  { role: "user", content: "Plan it." },
];

async function plan(backend: ChatBackend, messages = QUESTION, round = 0) {
  const events: RunEvent[] = [];
  const gen = planRound({
    backend,
    conductor: { temperature: 0.2, maxTokens: 100 },
    messages,
    workerIds: ["alpha", "beta"],
    maxSteps: 3,
    round,
    signal: new AbortController().signal,
    retry: { maxAttempts: 1 },
  });
  for (;;) {
    const next = await gen.next();
    if (next.done) return { outcome: next.value, events };
    events.push(next.value);
  }
}

const fake = (reply: FakeReply) => createFakeBackend([reply], { continuesAssistant: false });

describe("repetition loops", () => {
  it("finds the unit and its repeats at the end of the text, and nothing in ordinary text", () => {
    expect(repetitionLoop(`Plan:${"model_id = ['".repeat(100)}`)).toEqual({
      unit: "model_id = ['",
      repeats: 100,
    });
    expect(repetitionLoop("abc".repeat(300))).toMatchObject({ unit: "abc", repeats: 300 });
    expect(repetitionLoop("abc".repeat(100))).toBeUndefined(); // 300 chars: too short
    expect(repetitionLoop(`Reasoning first.\n${LISTS}`)).toBeUndefined();
    expect(repetitionLoop(`[], `.repeat(30))).toBeUndefined(); // 120 chars: too short to call a loop
  });

  it("stops a streaming plan that loops, with an error that says so, keeping the raw text", async () => {
    const chunks = ["Let me think. ", ...Array<string>(5000).fill("I will check it again. ")];
    const backend = fake({ chunks });
    const { outcome, events } = await plan(backend);
    expect(outcome).toMatchObject({ ok: false, code: "repetition_loop", cancelled: false });
    if (outcome.ok) return;
    expect(outcome.message).toContain('"I will check it again. "');
    expect(outcome.message).toMatch(/repeated \d+ times/);
    const deltas = events.filter((e) => e.type === "plan_delta").length;
    expect(deltas).toBeLessThan(200); // stopped soon after the loop was clear, not at 5,000
    expect(outcome.raw.startsWith("Let me think. I will check")).toBe(true);
  });

  it("a finished output that does not parse and ends in a loop is reported as the loop", async () => {
    const text = `Plan.\nmodel_id = [0]\nsubtasks = [${'"Solve", '.repeat(200)}`;
    const { outcome } = await plan(fake({ chunks: [text] }));
    expect(outcome).toMatchObject({ ok: false, code: "repetition_loop" });
  });
});

function windowed(reply: FakeReply, contextWindow: number): ChatBackend {
  const base = fake(reply);
  return {
    ...base,
    contextWindow,
    countTokens: (messages) => messages.reduce((n, m) => n + Math.ceil(m.content.length / 4), 0),
  };
}

describe("context window", () => {
  it("sends a prompt that fits unchanged", async () => {
    const { outcome, events } = await plan(windowed({ text: `Go.\n${LISTS}` }, 1000));
    expect(outcome.ok).toBe(true);
    expect(events.find((e) => e.type === "plan_start")).toMatchObject({ messages: QUESTION });
  });

  it("shortens the answer a refinement round carries, with a visible marker and a notice", async () => {
    const answer = `${"The first half of a long answer. ".repeat(60)}${"And the end. ".repeat(60)}`;
    const messages: ChatMessage[] = [
      ...QUESTION,
      { role: "assistant", content: `Go.\n${LISTS}` },
      { role: "user", content: buildRefinementMessage(answer, 1) },
    ];
    const backend = windowed({ text: `Keep it.\n${LISTS}` }, 600);
    const { outcome, events } = await plan(backend, messages, 1);
    expect(outcome.ok).toBe(true);
    const start = events.find((e) => e.type === "plan_start");
    const sent = start?.type === "plan_start" ? (start.messages.at(-1)?.content ?? "") : "";
    expect(sent).toMatch(/\[… [\d,]+ characters of the answer left out/);
    expect(sent).toContain("The first half of a long answer.");
    expect(sent).toContain("And the end.");
    expect(sent.length).toBeLessThan(buildRefinementMessage(answer, 1).length);
    const finish = events.find((e) => e.type === "plan_finish");
    expect(finish).toMatchObject({ notice: expect.stringContaining("shortened") as string });
    expect(cutMarker(1234)).toContain("1,234 characters");
  });

  it("refuses a prompt that cannot fit, saying how many tokens over it is, without calling", async () => {
    const backend = windowed({ text: LISTS }, 300);
    const question: ChatMessage[] = [QUESTION[0]!, { role: "user", content: "x".repeat(1200) }];
    const { outcome } = await plan(backend, question);
    expect(outcome).toMatchObject({
      ok: false,
      code: "prompt_too_long",
    } satisfies Partial<PlanOutcome>);
    if (outcome.ok) return;
    // 304 tokens + 100 kept for the plan, in a window of 300.
    expect(outcome.message).toContain("104 tokens over");
    expect((backend as unknown as { calls: unknown[] }).calls).toHaveLength(0);
  });
});
