import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importRun } from "../run/export.ts";
import {
  badPlanRun,
  failedRun,
  QUESTION,
  RAW0,
  SECRETS,
  twoRoundRun,
} from "../../test-support/engine/otel/otel-records.ts";
import { traceOf } from "./map.ts";
import { otlpJson, otlpRequest } from "./otlp.ts";
import type { OtelSpan, OtelTrace } from "./span.ts";

/** The span tree as indented names, children in order: what a tracing tool draws. */
function tree(t: OtelTrace): string[] {
  const out: string[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const s of t.spans.filter((x) => x.parentSpanId === parent)) {
      out.push(`${"  ".repeat(depth)}${s.name}`);
      walk(s.spanId, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
const named = (t: OtelTrace, name: string): OtelSpan[] => t.spans.filter((s) => s.name === name);
const text = (v: unknown): string => {
  if (typeof v !== "string") throw new Error(`expected a string attribute, got ${typeof v}`);
  return v;
};
const one = (t: OtelTrace, name: string): OtelSpan => {
  const found = named(t, name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};

describe("traceOf: rounds and retries", () => {
  const trace = traceOf(twoRoundRun());

  it("draws the run, each round's plan and steps, and every attempt as a sibling chat span", () => {
    expect(tree(trace)).toEqual([
      "invoke_workflow conductor",
      "  round 1",
      "    plan round 1",
      "      chat conductor-7b",
      "      chat conductor-7b",
      "    invoke_agent GPT-5",
      "      chat gpt-5",
      "      chat gpt-5",
      "    invoke_agent Claude Sonnet 4",
      "      chat claude-sonnet-4",
      "  round 2",
      "    plan round 2",
      "      chat conductor-7b",
    ]);
  });

  it("names operations, providers from the base URL, models and usage as the conventions do", () => {
    const root = trace.spans[0]!;
    expect(root.parentSpanId).toBeNull();
    expect(root.kind).toBe("internal");
    expect(root.attributes).toMatchObject({
      // GenAI conventions v0.1.0: the workflow is an internal invoke_agent span that keeps the
      // invoke_workflow operation and is named by gen_ai.agent.name.
      "gen_ai.operation.name": "invoke_workflow",
      "gen_ai.agent.name": "conductor",
      "openinference.span.kind": "CHAIN",
      "conductor.run.id": "run-two-rounds",
      "conductor.run.status": "done",
      "conductor.run.end_reason": "accepted",
      "conductor.totals.input_tokens": 300 + 50 + 80 + 400,
    });
    expect(root.status).toEqual({ code: "ok" });
    const agent = one(trace, "invoke_agent GPT-5");
    expect(agent.kind).toBe("internal");
    expect(agent.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "GPT-5",
      "conductor.step.worker": "gpt",
      "gen_ai.provider.name": "openai",
      "openinference.span.kind": "AGENT",
      "conductor.step.attempts": 2,
      "conductor.step.access": "[]",
    });
    // v0.1.0 drops gen_ai.agent.id on internal agent spans, and gen_ai.workflow.name altogether.
    expect(agent.attributes).not.toHaveProperty("gen_ai.agent.id");
    expect(root.attributes).not.toHaveProperty("gen_ai.workflow.name");
    const claude = one(trace, "chat claude-sonnet-4");
    expect(claude.kind).toBe("client");
    expect(claude.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "anthropic",
      "gen_ai.request.model": "claude-sonnet-4",
      "server.address": "api.anthropic.com",
      "server.port": 443,
      "gen_ai.usage.input_tokens": 80,
      "gen_ai.usage.output_tokens": 10,
      "gen_ai.response.finish_reasons": ["stop"],
      "llm.cost.total": { double: 0.0003 },
      "openinference.span.kind": "LLM",
    });
    const plan = one(trace, "plan round 1");
    expect(plan.attributes).toMatchObject({
      "conductor.plan.model_id": [0, 1],
      "conductor.plan.workers": ["gpt", "claude"],
      "conductor.plan.access_list": '[[],"all"]',
    });
    expect(plan.attributes["gen_ai.request.model"]).toBeUndefined();
    expect(named(trace, "chat conductor-7b")[0]!.attributes).toMatchObject({
      "gen_ai.provider.name": "openai_compatible",
      "server.address": "localhost",
      "server.port": 8000,
    });
    expect(one(trace, "plan round 2").attributes["conductor.round.accepted"]).toBe(true);
  });

  it("keeps the legacy names (semantic-conventions v1.41.0) when asked, and says which it used", () => {
    const legacy = traceOf(twoRoundRun(), { conventions: "legacy" });
    const root = legacy.spans[0]!;
    expect(root.attributes["gen_ai.workflow.name"]).toBe("conductor");
    expect(root.attributes).not.toHaveProperty("gen_ai.agent.name");
    expect(one(legacy, "invoke_agent GPT-5").attributes["gen_ai.agent.id"]).toBe("gpt");
    const scope = (t: typeof trace) => otlpRequest([t]).resourceSpans[0]!.scopeSpans[0]!.scope;
    expect(scope(legacy).attributes).toEqual([
      {
        key: "conductor.gen_ai.conventions",
        value: { stringValue: "semantic-conventions/v1.41.0" },
      },
    ]);
    expect(scope(trace).attributes).toEqual([
      {
        key: "conductor.gen_ai.conventions",
        value: { stringValue: "semantic-conventions-genai/v0.1.0" },
      },
    ]);
  });

  it("takes every time from the record, the failed attempt ending where its retry began", () => {
    const [failed, last] = named(trace, "chat gpt-5");
    expect([failed!.startMs, failed!.endMs]).toEqual([1_410, 1_500]);
    expect(failed!.status).toEqual({ code: "error", message: "The connection dropped." });
    expect(failed!.attributes).toMatchObject({ "error.type": "dropped", "conductor.attempt": 1 });
    expect(failed!.attributes["gen_ai.usage.input_tokens"]).toBeUndefined();
    expect([last!.startMs, last!.endMs]).toEqual([1_700, 2_000]);
    expect(last!.attributes).toMatchObject({
      "conductor.attempt": 2,
      "gen_ai.usage.reasoning.output_tokens": 20,
    });
    const [planFail, planOk] = named(trace, "chat conductor-7b");
    expect(planFail!.attributes).toMatchObject({
      "error.type": "server",
      "http.response.status_code": 503,
    });
    expect([planFail!.startMs, planFail!.endMs, planOk!.startMs]).toEqual([1_010, 1_050, 1_150]);
    expect(one(trace, "plan round 1").startMs).toBe(1_010);
    const root = trace.spans[0]!;
    expect([root.startMs, root.endMs]).toEqual([1_000, 2_510]);
    for (const s of trace.spans) {
      const parent = trace.spans.find((p) => p.spanId === s.parentSpanId);
      if (parent) expect(s.startMs).toBeGreaterThanOrEqual(parent.startMs);
      if (parent) expect(s.endMs).toBeLessThanOrEqual(parent.endMs);
    }
  });

  it("gives stable ids: the same record gives the same trace, byte for byte", () => {
    expect(otlpJson([traceOf(twoRoundRun())])).toBe(otlpJson([trace]));
    expect(trace.traceId).toMatch(/^[0-9a-f]{32}$/);
    const ids = trace.spans.map((s) => s.spanId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(traceOf(twoRoundRun("another-run")).traceId).not.toBe(trace.traceId);
  });
});

describe("traceOf: contents are opt-in", () => {
  it("leaves out the question, prompts, answers, reasoning and subtasks by default", () => {
    const json = otlpJson([traceOf(twoRoundRun())]);
    for (const text of [QUESTION, "Factor 391.", "17 x 23", "so not prime", "Two attempts"])
      expect(json).not.toContain(text);
    expect(json).not.toContain("gen_ai.input.messages");
  });

  it("records them in the conventions' message shape when asked", () => {
    const trace = traceOf(twoRoundRun(), { content: true });
    expect(trace.spans[0]!.attributes["input.value"]).toBe(QUESTION);
    const last = named(trace, "chat gpt-5")[1]!;
    expect(JSON.parse(text(last.attributes["gen_ai.output.messages"]))).toEqual([
      {
        role: "assistant",
        parts: [
          { type: "reasoning", content: "391 = 17 x 23, so not prime." },
          { type: "text", content: "391 = 17 x 23." },
        ],
        finish_reason: "stop",
      },
    ]);
    expect(JSON.parse(text(last.attributes["gen_ai.input.messages"]))).toEqual([
      { role: "user", parts: [{ type: "text", content: "Your assigned subtask: Factor 391." }] },
    ]);
    expect(last.attributes["llm.input_messages.0.message.role"]).toBe("user");
    expect(one(trace, "plan round 1").attributes["output.value"]).toBe(RAW0);
    expect(one(trace, "invoke_agent GPT-5").attributes["conductor.step.subtask"]).toBe(
      "Factor 391.",
    );
  });

  it("never carries a key or a secret header value, content on or off", () => {
    for (const content of [false, true]) {
      const json = otlpJson([
        traceOf(twoRoundRun(), { content }),
        traceOf(failedRun(), { content }),
      ]);
      for (const secret of SECRETS) expect(json).not.toContain(secret);
      expect(json).not.toMatch(/authorization|x-token|openai-organization/i);
    }
  });
});

describe("traceOf: failures", () => {
  it("marks a failed step, its round and the run as errors with error.type", () => {
    const trace = traceOf(failedRun());
    const agent = one(trace, "invoke_agent Claude Sonnet 4");
    expect(agent.status).toEqual({ code: "error", message: "The key was refused (401)." });
    expect(agent.attributes["error.type"]).toBe("auth");
    expect(one(trace, "chat claude-sonnet-4").attributes).toMatchObject({
      "error.type": "auth",
      "gen_ai.response.finish_reasons": ["error"],
    });
    expect(one(trace, "round 1").status.code).toBe("error");
    expect(trace.spans[0]!.status).toEqual({
      code: "error",
      message: "Step 2 failed: the key was refused (401).",
    });
    expect(trace.spans[0]!.attributes["error.type"]).toBe("step_error");
  });

  it("fails the plan span with the parse error while its chat call succeeded", () => {
    const trace = traceOf(badPlanRun());
    expect(tree(trace)).toEqual([
      "invoke_workflow conductor",
      "  round 1",
      "    plan round 1",
      "      chat conductor-7b",
    ]);
    const plan = one(trace, "plan round 1");
    expect(plan.status).toEqual({ code: "error", message: "The subtasks list is missing." });
    expect(plan.attributes["error.type"]).toBe("missing_list");
    const chat = one(trace, "chat conductor-7b");
    expect(chat.status).toEqual({ code: "ok" });
    expect(chat.attributes["gen_ai.usage.output_tokens"]).toBe(8);
  });
});

describe("traceOf: a run that continues another", () => {
  const parent = twoRoundRun("run-parent");
  const child = traceOf({
    ...twoRoundRun("run-child"),
    kind: "rerun",
    parentId: "run-parent",
    kept: [
      { parent: [], round: 0, step: null },
      { parent: [], round: 0, step: 0 },
    ],
  });

  it("links its root to the parent run's root, whose id it can derive", () => {
    const root = child.spans[0]!;
    expect(root.links).toEqual([
      {
        traceId: traceOf(parent).traceId,
        spanId: traceOf(parent).spans[0]!.spanId,
        attributes: { "conductor.link": "continues" },
      },
    ]);
    expect(root.attributes["conductor.run.parent_id"]).toBe("run-parent");
  });

  it("draws kept parts as instants at the run's start, without calls: they ran in the parent", () => {
    const kept = one(child, "invoke_agent GPT-5");
    expect(kept.attributes["conductor.kept"]).toBe(true);
    expect([kept.startMs, kept.endMs]).toEqual([1_000, 1_000]);
    expect(child.spans.filter((s) => s.parentSpanId === kept.spanId)).toEqual([]);
    expect(one(child, "plan round 1").attributes["conductor.kept"]).toBe(true);
    expect(named(child, "chat gpt-5")).toHaveLength(0);
    expect(named(child, "chat claude-sonnet-4")).toHaveLength(1);
  });
});

describe("traceOf: nested workflows", () => {
  const file = readFileSync(new URL("../run/fixtures/run-v4-nested.json", import.meta.url), "utf8");
  const imported = importRun(file);
  if (!imported.ok) throw new Error(imported.message);
  const trace = traceOf(imported.record);

  it("hangs a self-selected step's rounds under its invoke_agent span, without a chat of its own", () => {
    expect(tree(trace)).toEqual([
      "invoke_workflow conductor",
      "  round 1",
      "    plan round 1",
      "      chat conductor-7b",
      "    invoke_agent Alpha",
      "      chat alpha",
      "    invoke_agent The Conductor itself",
      "      round 1",
      "        plan round 1",
      "          chat conductor-7b",
      "        invoke_agent Beta",
      "          chat beta",
      "        invoke_agent Alpha",
      "          chat alpha",
    ]);
    const ids = trace.spans.map((s) => s.spanId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
