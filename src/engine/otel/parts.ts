/**
 * The parts of a run's trace: rounds, the plan and step spans of a round, and the `chat` attempts
 * under each (map.ts draws the tree from its root). A self-selected step's nested workflow recurses
 * into `roundSpans` here.
 */
import type { ParentPath } from "../schema/events.ts";
import type {
  FailedAttempt,
  PlanRecord,
  RoundRecord,
  RunRecord,
  StepRecord,
} from "../schema/record.ts";
import type { CallEnd, CallFacts, Endpoint } from "./chat.ts";
import { chatAttributes, modelAttributes } from "./chat.ts";
import { keptKey } from "../run/totals.ts";
import { spanIdOf } from "./trace-ids.ts";
import type { Attributes, GenAiConventions, OtelSpan, SpanStatus } from "./span.ts";
import { double } from "./span.ts";

/** What every part of the mapping reads. */
export interface MapContext {
  record: RunRecord;
  traceId: string;
  content: boolean;
  /** Keys (totals.ts keptKey) of the plans and steps this run kept from its parent. */
  kept: ReadonlySet<string>;
  /** Where a kept part is drawn: it ran in the parent run, not in this one. */
  runStart: number;
  conventions: GenAiConventions;
}

/** Builds a span; its times default to its children's extent (a part with no time of its own). */
export function makeSpan(
  ctx: MapContext,
  path: string,
  parent: string | null,
  init: {
    name: string;
    kind?: OtelSpan["kind"];
    start: number | null | undefined;
    end: number | null | undefined;
    attributes: Attributes;
    status: SpanStatus;
    events?: OtelSpan["events"];
    links?: OtelSpan["links"];
  },
  children: (id: string) => OtelSpan[] = () => [],
): OtelSpan[] {
  const spanId = spanIdOf(ctx.record.id, path);
  const below = children(spanId);
  const direct = below.filter((s) => s.parentSpanId === spanId);
  const starts = direct.map((s) => s.startMs);
  const ends = direct.map((s) => s.endMs);
  const start = init.start ?? (starts.length ? Math.min(...starts) : null) ?? ctx.runStart;
  const end = Math.max(start, init.end ?? (ends.length ? Math.max(...ends) : start), ...ends);
  const span: OtelSpan = {
    spanId,
    parentSpanId: parent,
    name: init.name,
    kind: init.kind ?? "internal",
    startMs: Math.min(start, ...starts),
    endMs: end,
    attributes: init.attributes,
    status: init.status,
    events: init.events ?? [],
    links: init.links ?? [],
  };
  return [span, ...below];
}

/** Rounds of a workflow (the run's, or a nested one's) under `parent`. */
export function roundSpans(
  ctx: MapContext,
  rounds: readonly RoundRecord[],
  scope: ParentPath,
  prefix: string,
  parent: string,
): OtelSpan[] {
  return rounds.flatMap((round) => {
    const path = `${prefix}r${round.index}`;
    const attributes: Attributes = {
      "openinference.span.kind": "CHAIN",
      "conductor.round.index": round.index,
      "conductor.round.accepted": round.accepted,
      "conductor.round.steps": round.steps.length,
    };
    if (ctx.content && round.answer !== null) attributes["output.value"] = round.answer;
    const failed = round.steps.find((s) => s.status === "failed");
    const planError = round.plan?.error;
    const status: SpanStatus = planError
      ? { code: "error", message: planError.message }
      : failed
        ? { code: "error", message: `Step ${failed.index + 1} failed.` }
        : round.answer !== null
          ? { code: "ok" }
          : { code: "unset" };
    return makeSpan(
      ctx,
      path,
      parent,
      {
        name: `round ${round.index + 1}`,
        start: round.startedAt ?? null,
        end: round.finishedAt ?? null,
        attributes,
        status,
      },
      (id) => [
        ...planSpans(ctx, round, scope, path, id),
        ...round.steps
          .filter(
            (s) => s.startedAt !== null || s.finishedAt !== null || isKept(ctx, scope, round, s),
          )
          .flatMap((s) => stepSpans(ctx, round, s, scope, `${path}/s${s.index}`, id)),
      ],
    );
  });
}

export function isKept(
  ctx: MapContext,
  scope: ParentPath,
  round: RoundRecord,
  step: StepRecord | null,
): boolean {
  return ctx.kept.has(keptKey(scope, round.index, step?.index ?? null));
}

/** The Conductor's endpoint as the run recorded it. */
export function conductorEndpoint(ctx: MapContext): Endpoint {
  const c = ctx.record.conductor;
  if (!c) return { kind: "openai", baseURL: "", model: "" };
  return {
    kind: c.kind,
    baseURL: c.baseURL,
    model: c.model,
    temperature: c.temperature,
    maxTokens: c.maxTokens,
  };
}

/** A step's worker endpoint; a self-selected step's worker is the Conductor itself. */
export function stepEndpoint(ctx: MapContext, step: StepRecord): Endpoint {
  const w = ctx.record.pool.find((x) => x.id === step.worker);
  if (!w || w.kind === "conductor") return { ...conductorEndpoint(ctx), kind: "conductor" };
  return {
    kind: w.kind,
    baseURL: w.baseURL,
    model: w.model,
    temperature: w.temperature,
    maxTokens: w.maxTokens,
  };
}

const statusOf = (end: CallEnd): SpanStatus =>
  end.kind === "failed"
    ? { code: "error", message: end.message }
    : end.kind === "done"
      ? { code: "ok" }
      : { code: "unset" };

/** One `chat` span per attempt: the failed ones (retried), then the one the result came from. */
function attemptSpans(
  ctx: MapContext,
  path: string,
  parent: string,
  tries: readonly FailedAttempt[],
  last: { attempt: number; start: number | null; end: number | null; facts: CallFacts },
): OtelSpan[] {
  const name = `chat ${last.facts.endpoint.model || "model"}`.trim();
  const failed = tries.flatMap((t) => {
    const facts: CallFacts = {
      ...last.facts,
      output: null,
      reasoning: undefined,
      usage: null,
      cost: null,
      end: { kind: "failed", code: t.code, message: t.message },
    };
    const attributes: Attributes = {
      ...chatAttributes(facts, ctx.content),
      "conductor.attempt": t.attempt,
      "conductor.retried": true,
      ...(t.status !== null ? { "http.response.status_code": t.status } : {}),
    };
    return makeSpan(ctx, `${path}/a${t.attempt}`, parent, {
      name,
      kind: "client",
      start: t.startedAt,
      end: t.finishedAt,
      attributes,
      status: { code: "error", message: t.message },
    });
  });
  const attributes = {
    ...chatAttributes(last.facts, ctx.content),
    "conductor.attempt": last.attempt,
  };
  return [
    ...failed,
    ...makeSpan(ctx, `${path}/a${last.attempt}`, parent, {
      name,
      kind: "client",
      start: last.start,
      end: last.end,
      attributes,
      status: statusOf(last.facts.end),
    }),
  ];
}

/** Whether a plan's error is its call failing (no text came back) rather than a plan that did not parse. */
function callFailed(plan: PlanRecord): boolean {
  const tokens = (plan.usage?.promptTokens ?? 0) + (plan.usage?.completionTokens ?? 0);
  return plan.error !== null && plan.raw === "" && !plan.reasoning && tokens === 0;
}

/** The round's plan span and its `chat` attempts; none for a round without a Conductor plan. */
export function planSpans(
  ctx: MapContext,
  round: RoundRecord,
  scope: ParentPath,
  path: string,
  parent: string,
): OtelSpan[] {
  const plan = round.plan;
  if (!plan) return [];
  const kept = isKept(ctx, scope, round, null);
  const lists = round.lists;
  const attributes: Attributes = {
    // No gen_ai.* model attributes here: tools count a span carrying them as a model call, and
    // the plan's call is its chat child.
    "openinference.span.kind": "CHAIN",
    "conductor.round.index": round.index,
    "conductor.round.accepted": round.accepted,
  };
  if (lists) {
    attributes["conductor.plan.steps"] = lists.model_id.length;
    attributes["conductor.plan.model_id"] = lists.model_id;
    attributes["conductor.plan.workers"] = lists.model_id.map((n) => lists.workerIds[n] ?? "");
    attributes["conductor.plan.access_list"] = JSON.stringify(lists.access_list);
    if (ctx.content) attributes["conductor.plan.subtasks"] = lists.subtasks;
  }
  if (ctx.content && plan.raw) attributes["output.value"] = plan.raw;
  if (plan.notice) attributes["conductor.plan.notice"] = plan.notice;
  if (plan.error) attributes["error.type"] = plan.error.code;
  if (kept) attributes["conductor.kept"] = true;
  const status: SpanStatus = plan.error
    ? { code: "error", message: plan.error.message }
    : plan.finishedAt !== null
      ? { code: "ok" }
      : { code: "unset" };
  const tries = plan.tries ?? [];
  const end: CallEnd =
    plan.finishedAt === null
      ? { kind: "unfinished" }
      : plan.error && callFailed(plan)
        ? { kind: "failed", code: plan.error.code, message: plan.error.message }
        : { kind: "done" };
  const facts: CallFacts = {
    endpoint: conductorEndpoint(ctx),
    messages: plan.messages,
    output: end.kind === "done" ? plan.raw : null,
    reasoning: plan.reasoning,
    usage: end.kind === "done" ? plan.usage : null,
    cost: end.kind === "done" ? plan.cost : null,
    end,
  };
  return makeSpan(
    ctx,
    `${path}/plan`,
    parent,
    {
      name: `plan round ${round.index + 1}`,
      // A kept plan ran in the parent run: drawn as an instant at this run's start.
      start: kept ? ctx.runStart : (tries[0]?.startedAt ?? plan.startedAt),
      end: kept ? ctx.runStart : plan.finishedAt,
      attributes,
      status,
    },
    (id) =>
      kept
        ? []
        : attemptSpans(ctx, `${path}/plan`, id, tries, {
            attempt: tries.length + 1,
            start: plan.startedAt,
            end: plan.finishedAt,
            facts,
          }),
  );
}

function stepEnd(step: StepRecord): CallEnd {
  if (step.status === "done") return { kind: "done" };
  if (step.status === "failed")
    return {
      kind: "failed",
      code: step.error?.code ?? "failed",
      message: step.error?.message ?? "Failed.",
    };
  if (step.status === "cancelled")
    return { kind: "failed", code: "cancelled", message: "Cancelled." };
  if (step.status === "interrupted")
    return { kind: "failed", code: "interrupted", message: "Interrupted by a reload." };
  return { kind: "unfinished" };
}

/** A step's `invoke_agent` span with its `chat` attempts, or its nested workflow's rounds. */
export function stepSpans(
  ctx: MapContext,
  round: RoundRecord,
  step: StepRecord,
  scope: ParentPath,
  path: string,
  parent: string,
): OtelSpan[] {
  const endpoint = stepEndpoint(ctx, step);
  const kept = isKept(ctx, scope, round, step);
  const end = stepEnd(step);
  const attributes: Attributes = {
    "gen_ai.operation.name": "invoke_agent",
    ...modelAttributes(endpoint),
    "gen_ai.agent.name": step.workerName,
    // Conventions v0.1.0 drop gen_ai.agent.id on internal agent spans; the worker's id stays ours.
    ...(ctx.conventions === "legacy" ? { "gen_ai.agent.id": step.worker } : {}),
    "conductor.step.worker": step.worker,
    "openinference.span.kind": "AGENT",
    "agent.name": step.workerName,
    "graph.node.id": path,
    "conductor.round.index": round.index,
    "conductor.step.index": step.index,
    "conductor.step.status": step.status,
    "conductor.step.attempts": step.attempts,
    "conductor.step.access": JSON.stringify(step.access),
  };
  // An unknown cost is left out, never written as 0.
  if (step.cost !== null && !step.usage?.unpriced)
    attributes["conductor.step.cost_usd"] = double(step.cost);
  if (ctx.content) {
    attributes["conductor.step.subtask"] = step.subtask;
    attributes["input.value"] = step.subtask;
    if (step.status === "done") attributes["output.value"] = step.output;
  }
  if (kept) attributes["conductor.kept"] = true;
  if (end.kind === "failed") attributes["error.type"] = end.code;
  if (step.status === "skipped" && step.error)
    attributes["conductor.step.skipped"] = step.error.code;
  const status: SpanStatus =
    end.kind === "failed"
      ? { code: "error", message: end.message }
      : end.kind === "done"
        ? { code: "ok" }
        : { code: "unset" };
  const nested = step.nested;
  const children = (id: string): OtelSpan[] => {
    if (kept || step.status === "skipped") return [];
    if (nested) {
      const inner = [...scope, { round: round.index, step: step.index }];
      return roundSpans(ctx, nested.rounds, inner, `${path}/n/`, id);
    }
    if (step.startedAt === null) return [];
    const tries = step.tries ?? [];
    return attemptSpans(ctx, path, id, tries, {
      attempt: Math.max(step.attempts, tries.length + 1),
      start: step.attemptStartedAt ?? step.startedAt,
      end: step.finishedAt,
      facts: {
        endpoint,
        messages: step.messages,
        output: end.kind === "done" ? step.output : null,
        reasoning: step.reasoning,
        usage: end.kind === "done" ? step.usage : null,
        cost: end.kind === "done" ? step.cost : null,
        end,
      },
    });
  };
  return makeSpan(
    ctx,
    path,
    parent,
    {
      name: `invoke_agent ${step.workerName}`,
      start: kept ? ctx.runStart : (step.startedAt ?? step.finishedAt),
      end: kept ? ctx.runStart : step.finishedAt,
      attributes,
      status,
    },
    children,
  );
}
