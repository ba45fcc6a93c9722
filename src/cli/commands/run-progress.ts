// What `run` tells a person on stderr: one line per meaningful event, in plain words, and at the
// end the answer and one line of totals.
import { formatCost } from "../../engine/cost.ts";
import { ENDING_TEXT } from "../../engine/errors.ts";
import type { EventOf, RunEvent } from "../../engine/schema/events.ts";
import type { RunRecord } from "../../engine/schema/record.ts";

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** The run's end: its status and the ending's text (one table, `ENDING_TEXT`), then any detail. */
function finishLine(e: EventOf<"run_finish">): string {
  const text = ENDING_TEXT[e.reason];
  const head = `[run] ${e.status}: ${text}`;
  return e.message && e.message !== text ? `${head} ${e.message}` : head;
}

/** One stderr line per meaningful event; deltas are not echoed. */
export function progressLine(
  e: RunEvent,
  starts: Map<string, number>,
  names: string[],
): string | null {
  switch (e.type) {
    case "plan_start":
      starts.set(`plan${e.round}`, e.at);
      return `[round ${e.round + 1}] planning with the Conductor...`;
    case "plan_finish":
      if (e.error) return `[round ${e.round + 1}] plan failed: ${e.error.message}`;
      if (e.steps?.length === 0) return `[round ${e.round + 1}] the Conductor accepted the answer`;
      return `[round ${e.round + 1}] plan: ${e.steps?.length ?? 0} steps (${seconds(e.at - (starts.get(`plan${e.round}`) ?? e.at))})`;
    case "step_start":
      starts.set(`${e.round}.${e.step}`, e.at);
      return `[step ${e.step + 1}] ${names[e.step] ?? "worker"} started${e.attempt > 1 ? ` (attempt ${e.attempt})` : ""}`;
    case "step_retry":
      return `[step ${e.step + 1}] ${e.message} Retrying in ${seconds(e.delayMs)}`;
    case "plan_retry":
      return `[round ${e.round + 1}] ${e.message} Retrying the plan in ${seconds(e.delayMs)}`;
    case "step_finish": {
      const tokens = e.usage.promptTokens + e.usage.completionTokens;
      const took = seconds(e.at - (starts.get(`${e.round}.${e.step}`) ?? e.at));
      return `[step ${e.step + 1}] done: ${tokens}${e.usage.estimated ? " (estimated)" : ""} tokens, ${formatCost(e.cost)}, ${took}`;
    }
    case "step_error":
      return `[step ${e.step + 1}] failed: ${e.message}`;
    case "step_cancel":
      return `[step ${e.step + 1}] cancelled`;
    case "step_skip":
      return `[step ${e.step + 1}] skipped: ${e.message}`;
    case "run_finish":
      return finishLine(e);
    case "round_start":
    case "run_start":
    case "plan_delta":
    case "plan_reasoning":
    case "step_reasoning":
    case "step_queued":
    case "step_delta":
    case "round_finish":
      return null;
  }
}

/** One line of totals: tokens, calls, cost and time. */
export function totalsLine(record: RunRecord): string {
  const t = record.totals;
  const took =
    record.startedAt !== null && record.finishedAt !== null
      ? `, ${seconds(record.finishedAt - record.startedAt)}`
      : "";
  const tokens = `${t.promptTokens + t.completionTokens}${t.estimated ? " (estimated)" : ""} tokens`;
  return `${tokens} (${t.promptTokens} in, ${t.completionTokens} out), ${t.calls} call${t.calls === 1 ? "" : "s"}, ${formatCost(t.cost)}${took}`;
}

/** For a person at a terminal: the answer, then the totals. */
export function answerBlock(record: RunRecord): string {
  const answer = record.answer === null ? "(no answer)" : record.answer.trimEnd();
  return `\nAnswer:\n${answer}\n\nTotals: ${totalsLine(record)}\n`;
}
