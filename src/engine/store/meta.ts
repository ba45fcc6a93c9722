import { roundAt } from "../run/focus.ts";
import type { RunRecord } from "../schema/record.ts";
import type { RunMeta } from "./db-schema.ts";

/** The first non-empty line of a question, shortened for a list row. */
export function firstLine(question: string, max = 160): string {
  const line = question.split("\n").find((l) => l.trim()) ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line.trim();
}

/** How many steps a run has: its top-level rounds' steps. */
function stepCount(record: RunRecord): number {
  return record.rounds.reduce((n, r) => n + r.steps.length, 0);
}

/** The lower-case text History searches: the title, an evaluation's name and strategy, the question. */
export function searchText(title: string, question: string, tag?: RunMeta["evaluation"]): string {
  const evaluation = tag ? `${tag.name} ${tag.strategy} ${tag.item}\n` : "";
  return `${title}\n${evaluation}${question}`.toLowerCase();
}

/** The history row of a record; `extra` keeps what the user set (title, star) and the kind shown. */
export function metaOf(
  record: RunRecord,
  bytes: number,
  extra: Partial<Pick<RunMeta, "key" | "title" | "starred" | "kind" | "evaluation">> = {},
  savedAt = Date.now(),
): RunMeta {
  const t = record.totals;
  const durations = [record.planningMs, record.executionMs].filter((d) => d !== null);
  const question = firstLine(record.question);
  return {
    key: extra.key ?? record.id,
    runId: record.id,
    title: extra.title ?? "",
    question,
    search: searchText(extra.title ?? "", record.question, extra.evaluation),
    createdAt: record.createdAt ?? record.startedAt ?? savedAt,
    savedAt,
    status: record.status,
    kind: extra.kind ?? record.kind,
    parentId: record.parentId,
    steps:
      stepCount(record) || (roundAt(record, { parent: [], round: 0 })?.lists?.model_id.length ?? 0),
    tokens: t.promptTokens + t.completionTokens,
    cost: t.cost,
    calls: t.calls,
    ...(t.unpricedCalls ? { unpricedCalls: t.unpricedCalls } : {}),
    durationMs: durations.length ? durations.reduce((a, b) => a + b, 0) : null,
    starred: extra.starred ?? false,
    bytes,
    ...(extra.evaluation && { evaluation: extra.evaluation }),
  };
}
