/**
 * A run record as one OpenTelemetry trace, in the GenAI semantic conventions (v0.1.0 of their own
 * repository by default; span.ts GenAiConventions):
 *
 *   invoke_workflow conductor                     the run (root)
 *   ├─ round 1                                    one per round
 *   │  ├─ plan round 1                            the Conductor's plan: lists, parse errors
 *   │  │  └─ chat <conductor model>               one per attempt (retries are siblings)
 *   │  └─ invoke_agent <worker>                   one per step
 *   │     ├─ chat <worker model>                  one per attempt
 *   │     └─ round 1 …                            a self-selected step's nested workflow
 *   └─ round 2 …                                  a refinement round
 *
 * Pure and deterministic: times come from the record, ids from the run id and each part's place
 * (ids.ts), so the same record always gives the same trace. Message contents (prompts, answers,
 * reasoning, subtasks, the question) appear only with `content`; keys and header values never,
 * since no span reads a worker's headers or a full URL.
 */
import type { ParentPath } from "../schema/events.ts";
import type { RoundRecord, RunRecord, StepRecord } from "../schema/record.ts";
import { keptKey } from "../run/totals.ts";
import { spanIdOf, traceIdOf } from "./ids.ts";
import { planSpans, stepSpans } from "./parts.ts";
import type {
  Attributes,
  GenAiConventions,
  OtelSpan,
  OtelTrace,
  SpanStatus,
  TraceOptions,
} from "./span.ts";
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

function runStatus(record: RunRecord): SpanStatus {
  switch (record.status) {
    case "done":
    case "planned":
      return { code: "ok" };
    case "failed":
    case "cancelled":
    case "interrupted":
      return { code: "error", message: record.message ?? `The run ${record.status}.` };
    case "draft":
    case "planning":
    case "running":
      return { code: "unset" };
  }
}

/** The trace of one run record. */
export function traceOf(record: RunRecord, options: TraceOptions = {}): OtelTrace {
  const traceId = traceIdOf(record.id);
  const runStart = record.startedAt ?? record.createdAt ?? 0;
  const ctx: MapContext = {
    record,
    traceId,
    content: options.content === true,
    kept: new Set(record.kept.map((k) => keptKey(k.parent, k.round, k.step))),
    runStart,
    conventions: options.conventions ?? "current",
  };
  const t = record.totals;
  const attributes: Attributes = {
    // Conventions v0.1.0 merge the workflow span into invoke_agent (internal), named by
    // gen_ai.agent.name; the operation stays invoke_workflow. Legacy names it gen_ai.workflow.name.
    "gen_ai.operation.name": "invoke_workflow",
    [ctx.conventions === "legacy" ? "gen_ai.workflow.name" : "gen_ai.agent.name"]: "conductor",
    "openinference.span.kind": "CHAIN",
    "conductor.run.id": record.id,
    "conductor.run.kind": record.kind,
    "conductor.run.status": record.status,
    "conductor.run.max_steps": record.maxSteps,
    "conductor.run.max_rounds": record.maxRounds,
    "conductor.run.rounds": record.rounds.length,
    "conductor.totals.input_tokens": t.promptTokens,
    "conductor.totals.output_tokens": t.completionTokens,
    // Left out where some call's price is unknown: the sum would read as a cost it is not.
    ...(t.unpricedCalls ? {} : { "conductor.totals.cost_usd": double(t.cost) }),
    "conductor.totals.calls": t.calls,
    "conductor.totals.estimated": t.estimated,
    ...(t.reasoningTokens !== undefined
      ? { "conductor.totals.reasoning_tokens": t.reasoningTokens }
      : {}),
    ...(record.parentId ? { "conductor.run.parent_id": record.parentId } : {}),
    ...(record.endReason ? { "conductor.run.end_reason": record.endReason } : {}),
    ...(record.conductor ? { "conductor.model": record.conductor.model } : {}),
    ...options.rootAttributes,
  };
  const failure = runStatus(record);
  if (failure.code === "error") attributes["error.type"] = record.endReason ?? record.status;
  if (ctx.content) {
    attributes["input.value"] = record.question;
    if (record.answer !== null) attributes["output.value"] = record.answer;
  }
  // A run that continues another links to that run's root span, which has a derivable id.
  const links = record.parentId
    ? [
        {
          traceId: traceIdOf(record.parentId),
          spanId: spanIdOf(record.parentId, "run"),
          attributes: { "conductor.link": "continues" },
        },
      ]
    : [];
  const spans = makeSpan(
    ctx,
    "run",
    null,
    {
      name: "invoke_workflow conductor",
      start: record.startedAt ?? record.createdAt,
      end: record.finishedAt,
      attributes,
      status: failure,
      links,
    },
    (id) => roundSpans(ctx, record.rounds, [], "", id),
  );
  return { traceId, runId: record.id, conventions: ctx.conventions, spans };
}
