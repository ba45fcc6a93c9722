import { describe, expect, it } from "vitest";
import type { HistoryFilter } from "./history-view.ts";
import { historyView, newestFirst } from "./history-view.ts";
import { searchText } from "./meta.ts";
import type { EvalTag, RunMeta } from "./db-schema.ts";

function row(key: string, at: number, over: Partial<RunMeta> = {}): RunMeta {
  const question = over.question ?? `question ${key}`;
  return {
    key,
    runId: key,
    title: "",
    question,
    search: searchText("", question, over.evaluation),
    createdAt: at,
    savedAt: at,
    status: "done",
    kind: "planned",
    parentId: null,
    steps: 1,
    tokens: 10,
    cost: 0.01,
    durationMs: 5,
    starred: false,
    bytes: 100,
    ...over,
  };
}

const tag = (id: string, strategy: string, verdict: EvalTag["verdict"]): EvalTag => ({
  id,
  name: `Eval ${id}`,
  strategy,
  item: "q1",
  repeat: 0,
  verdict,
});

const item = (key: string, at: number, t: EvalTag) =>
  row(key, at, { kind: "evaluation", evaluation: t, question: `item ${key}` });

const ALL = newestFirst([
  row("mine-1", 1),
  item("e1-a", 2, tag("e1", "conductor", "correct")),
  item("e1-b", 3, tag("e1", "moa", "wrong")),
  row("mine-2", 4, { status: "failed" }),
  item("e2-a", 5, tag("e2", "chain", "unscored")),
  item("e1-c", 6, tag("e1", "conductor", "correct")),
]);

const F: HistoryFilter = { text: "", status: "", starred: false, kind: "grouped" };
const keys = (f: Partial<HistoryFilter>) =>
  historyView(ALL, { ...F, ...f }).entries.map((e) => e.key);

describe("historyView", () => {
  it("folds each evaluation's items into one row at its newest item, beside the user's runs", () => {
    expect(keys({})).toEqual(["eval:e1", "eval:e2", "mine-2", "mine-1"]);
    const e1 = historyView(ALL, F).entries[0];
    expect(e1?.type === "evaluation" && e1.group).toEqual({
      id: "e1",
      name: "Eval e1",
      firstAt: 2,
      lastAt: 6,
      items: 3,
      correct: 2,
      wrong: 1,
      unscored: 0,
      errored: 0,
      strategies: ["conductor", "moa"],
      tokens: 30,
      cost: 0.03,
      calls: 0,
      unpricedCalls: 0,
    });
  });

  it("counts errored items apart from unscored ones, and the calls without a price", () => {
    const rows = newestFirst([
      item("e3-a", 1, tag("e3", "conductor", "errored")),
      item("e3-b", 2, tag("e3", "conductor", "unscored")),
      row("e3-c", 3, {
        kind: "evaluation",
        evaluation: tag("e3", "moa", "correct"),
        calls: 3,
        unpricedCalls: 2,
      }),
    ]);
    const [e3] = historyView(rows, F).entries;
    expect(e3?.type === "evaluation" && e3.group).toMatchObject({
      correct: 1,
      wrong: 0,
      unscored: 1,
      errored: 1,
      calls: 3,
      unpricedCalls: 2,
    });
  });

  it("filters by kind: own runs, evaluations, every item", () => {
    expect(keys({ kind: "runs" })).toEqual(["mine-2", "mine-1"]);
    expect(keys({ kind: "evaluations" })).toEqual(["eval:e1", "eval:e2"]);
    expect(keys({ kind: "items" })).toEqual(["e1-c", "e2-a", "e1-b", "e1-a"]);
    expect(historyView(ALL, { ...F, kind: "items" }).runs).toHaveLength(4);
  });

  it("searches runs, items and evaluation names and strategies; filters by status", () => {
    expect(keys({ text: "MINE-1" })).toEqual(["mine-1"]);
    expect(keys({ text: "question mine-1" })).toEqual(["mine-1"]);
    expect(keys({ text: "eval e2" })).toEqual(["eval:e2"]);
    expect(keys({ text: "moa", kind: "items" })).toEqual(["e1-b"]);
    expect(keys({ status: "failed" })).toEqual(["mine-2"]);
  });

  it("groups item rows stored without their evaluation apart, not as the user's runs", () => {
    const old = [row("old", 9, { kind: "evaluation" }), row("mine", 1)];
    expect(historyView(old, F).entries.map((e) => e.key)).toEqual(["eval:", "mine"]);
  });

  it("finds one run among 100,000 rows (its time: `npm run bench`)", () => {
    const many = newestFirst(
      Array.from({ length: 100_000 }, (_, i) =>
        i % 10 ? item(`i${i}`, i, tag(`e${i % 50}`, "moa", "correct")) : row(`r${i}`, i),
      ),
    );
    const view = historyView(many, { ...F, text: "question r99990" });
    expect(view.entries.map((e) => e.key)).toEqual(["r99990"]);
  });
});
