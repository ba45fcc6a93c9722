import { z } from "zod";
import type { RunStatus } from "../schema/record.ts";
import type { RunMeta } from "./db-schema.ts";

/**
 * Which stored runs History lists: `grouped` (the default) the user's own runs and one row per
 * evaluation; `runs` only the user's own runs; `evaluations` only the evaluations; `items` every
 * evaluation item's run, one row each.
 */
export const HistoryKindSchema = z.enum(["grouped", "runs", "evaluations", "items"]);
export type HistoryKind = z.infer<typeof HistoryKindSchema>;

export interface HistoryFilter {
  text: string;
  status: RunStatus | "";
  starred: boolean;
  kind: HistoryKind;
}

/** One evaluation as a History row: its items folded together. */
export interface EvalGroup {
  id: string;
  name: string;
  /** When its first and last stored item started. */
  firstAt: number;
  lastAt: number;
  items: number;
  correct: number;
  wrong: number;
  unscored: number;
  /** Items whose calls failed: no verdict, and not "unscored" either. */
  errored: number;
  strategies: string[];
  tokens: number;
  cost: number;
  /** Calls made by its items, and how many of them had no price (their cost is unknown, not $0). */
  calls: number;
  unpricedCalls: number;
}

export type HistoryEntry =
  | { type: "run"; key: string; row: RunMeta }
  | { type: "evaluation"; key: string; group: EvalGroup };

/** The group key of item rows stored without their evaluation (before it was recorded). */
export const UNTAGGED_EVAL = "";

const isItem = (r: RunMeta) => r.kind === "evaluation";

function matches(r: RunMeta, f: HistoryFilter, text: string): boolean {
  return (
    (!text || r.search.includes(text)) &&
    (!f.status || r.status === f.status) &&
    (!f.starred || r.starred)
  );
}

function addTo(groups: Map<string, EvalGroup>, r: RunMeta): void {
  const tag = r.evaluation;
  const id = tag?.id ?? UNTAGGED_EVAL;
  let g = groups.get(id);
  if (!g) {
    g = {
      id,
      name: tag?.name ?? "Evaluation items stored without their evaluation",
      firstAt: r.createdAt,
      lastAt: r.createdAt,
      items: 0,
      correct: 0,
      wrong: 0,
      unscored: 0,
      errored: 0,
      strategies: [],
      tokens: 0,
      cost: 0,
      calls: 0,
      unpricedCalls: 0,
    };
    groups.set(id, g);
  }
  g.items++;
  g.firstAt = Math.min(g.firstAt, r.createdAt);
  g.lastAt = Math.max(g.lastAt, r.createdAt);
  g.tokens += r.tokens;
  g.cost += r.cost;
  g.calls += r.calls ?? 0;
  g.unpricedCalls += r.unpricedCalls ?? 0;
  g[tag?.verdict ?? "unscored"]++;
  if (tag && !g.strategies.includes(tag.strategy)) g.strategies.push(tag.strategy);
}

/**
 * What History lists for a filter, from every stored row newest first (`all`): the entries in
 * list order, and the run rows among them (selection, compare and export work on runs). An
 * evaluation is listed when any of its items passes the filter (its name matches the search as
 * its items' rows carry it), at the time of its newest item. One pass over the rows.
 */
export function historyView(
  all: readonly RunMeta[],
  filter: HistoryFilter,
): { entries: HistoryEntry[]; runs: RunMeta[] } {
  const text = filter.text.trim().toLowerCase();
  // Run entries, and the id of each group at the place of its newest item (rows come newest first).
  const order: (HistoryEntry | string)[] = [];
  const runs: RunMeta[] = [];
  const groups = new Map<string, EvalGroup>();
  const wantRuns = filter.kind === "grouped" || filter.kind === "runs";
  const wantGroups = filter.kind === "grouped" || filter.kind === "evaluations";
  for (const r of all) {
    if (!matches(r, filter, text)) continue;
    if (isItem(r) ? filter.kind === "items" : wantRuns) {
      order.push({ type: "run", key: r.key, row: r });
      runs.push(r);
    } else if (isItem(r) && wantGroups) {
      const id = r.evaluation?.id ?? UNTAGGED_EVAL;
      if (!groups.has(id)) order.push(id);
      addTo(groups, r);
    }
  }
  const entries = order.map((e): HistoryEntry => {
    if (typeof e !== "string") return e;
    const group = groups.get(e) as EvalGroup; // every id in `order` was added to `groups`
    group.strategies.sort();
    return { type: "evaluation", key: `eval:${e}`, group };
  });
  return { entries, runs };
}

/** Rows newest first, as History lists them (equal times: the later key first, stable). */
export function newestFirst(rows: RunMeta[]): RunMeta[] {
  return rows.sort((a, b) => b.createdAt - a.createdAt || (a.key < b.key ? 1 : -1));
}
