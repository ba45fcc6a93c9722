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
import type { RunRecord } from "../schema/record.ts";
import { keptKey } from "../run/totals.ts";
import { spanIdOf, traceIdOf } from "./trace-ids.ts";
import type { MapContext } from "./parts.ts";
import { makeSpan, roundSpans } from "./parts.ts";
import type { Attributes, OtelTrace, SpanStatus, TraceOptions } from "./span.ts";
import { double } from "./span.ts";

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
