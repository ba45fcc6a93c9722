// checkRun invariant by invariant on a valid record broken in one place, with the exact problems
// (refused) and notes (opened) it gives; importRunChecked's refusal text and its odd inputs.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { RoundRecord, RunRecord, StepRecord } from "../schema/record.ts";
import { MAX_NESTING, checkRun, importRunChecked } from "./validate.ts";

const V4 = readFileSync(new URL("./fixtures/run-v4-nested.json", import.meta.url), "utf8");
const opened = importRunChecked(V4);
if (!opened.ok) throw new Error("the v4 fixture opens");
/** A fresh copy of the fixture's record: pool a, b, c (the Conductor); one round of two steps. */
const base = (): RunRecord => structuredClone(opened.record);
const round0 = (r: RunRecord): RoundRecord => r.rounds[0]!;
const lists = (r: RunRecord) => round0(r).lists!;
const stepAt = (r: RunRecord, i: number): StepRecord => round0(r).steps[i]!;
const edited = (at = " at step 2") =>
  `round 1: the steps that ran differ from the Conductor's lists${at} (edited after planning).`;

describe("checkRun", () => {
  it("finds nothing wrong with the fixture", () => {
    expect(checkRun(base())).toEqual({ problems: [], notes: [] });
  });

  it("compares access entries: 'all' only with 'all', lists element by element", () => {
    const same = base();
    stepAt(same, 1).access = [0];
    lists(same).access_list[1] = [0];
    expect(checkRun(same)).toEqual({ problems: [], notes: [] });
    for (const [listed, ran] of [
      [[0], "all"],
      ["all", [0]],
      [[0], []],
      [[], [0]],
    ] as const) {
      const r = base();
      lists(r).access_list[1] = listed === "all" ? "all" : [...listed];
      stepAt(r, 1).access = ran === "all" ? "all" : [...ran];
      expect(checkRun(r).notes).toEqual([edited()]);
    }
  });

  it("reports lists of different lengths without throwing on the entry that is missing", () => {
    const r = base();
    lists(r).access_list = [[]];
    stepAt(r, 1).access = [0];
    expect(checkRun(r)).toEqual({
      problems: ["round 1: its three lists have different lengths (2, 2, 1)."],
      notes: [edited()],
    });
  });

  it("compares 'all' with a list of three, and lists of one length element by element", () => {
    // A third step, c, that ran on a and read steps 1 and 2.
    const r = base();
    round0(r).steps.push({ ...structuredClone(stepAt(r, 0)), index: 2, access: [0, 1] });
    lists(r).model_id.push(0);
    lists(r).subtasks.push(stepAt(r, 0).subtask);
    lists(r).access_list.push([0, 1]);
    expect(checkRun(r)).toEqual({ problems: [], notes: [] });
    lists(r).access_list[2] = [0, 0];
    expect(checkRun(r).notes).toEqual([edited(" at step 3")]);
    stepAt(r, 2).access = [0, 1, 0];
    lists(r).access_list[2] = "all";
    expect(checkRun(r).notes).toEqual([edited(" at step 3")]);
  });

  it("names every step that differs from the lists, and a model id the lists lack", () => {
    const both = base();
    lists(both).subtasks = ["other", "other too"];
    expect(checkRun(both).notes).toEqual([edited(" at step 1, 2")]);
    const short = base();
    // Model id 1 would be c, the worker step 2 ran on; but the lists have no second entry.
    lists(short).workerIds = ["a", "c", "b"];
    lists(short).model_id = [0];
    expect(checkRun(short).notes).toEqual([edited()]);
  });

  it("reports a round or step numbered out of place", () => {
    const r = base();
    round0(r).index = 1;
    stepAt(r, 1).index = 0;
    expect(checkRun(r).problems).toEqual([
      "round 1 is numbered 1.",
      "round 1, step 2 is numbered 0.",
    ]);
  });

  it("allows as many steps and list entries as the cap, not more", () => {
    const atCap = base();
    atCap.maxSteps = 2;
    expect(checkRun(atCap).problems).toEqual([]);
    const over = base();
    over.maxSteps = 1;
    expect(checkRun(over).problems).toEqual([
      "round 1 has 2 steps, more than the cap of 1.",
      "round 1: its lists have 2 entries, more than the cap of 1.",
      // The cap holds inside nested workflows too.
      "round 1, step 2 › nested round 1 has 2 steps, more than the cap of 1.",
      "round 1, step 2 › nested round 1: its lists have 2 entries, more than the cap of 1.",
    ]);
  });

  it("refuses a model id past the workers shown or below zero", () => {
    const r = base();
    lists(r).model_id = [-1, 3];
    expect(checkRun(r).problems).toEqual([
      "round 1: model_id[0] is -1, not one of the 3 workers its prompt showed.",
      "round 1: model_id[1] is 3, not one of the 3 workers its prompt showed.",
    ]);
  });

  it("refuses list access that points at the step itself or later", () => {
    const r = base();
    lists(r).access_list = [[0], [1]];
    expect(checkRun(r).problems).toEqual([
      "round 1: access_list[0]: its access names the step itself (0); a step sees only earlier steps.",
      "round 1: access_list[1]: its access names the step itself (1); a step sees only earlier steps.",
    ]);
  });

  it("notes lists longer than the steps that ran, and nothing for a plan that never ran", () => {
    const longer = base();
    lists(longer).model_id.push(0);
    lists(longer).subtasks.push("more");
    lists(longer).access_list.push([]);
    expect(checkRun(longer).notes).toEqual([edited("")]);
    const planned = base();
    round0(planned).steps = [];
    expect(checkRun(planned)).toEqual({ problems: [], notes: [] });
    const noLists = base();
    round0(noLists).lists = null;
    expect(checkRun(noLists)).toEqual({ problems: [], notes: [] });
  });

  it("names a missing worker as its step recorded it, unless a pool worker has that name", () => {
    const r = base();
    stepAt(r, 0).worker = "zed";
    stepAt(r, 0).workerName = "Gamma";
    expect(checkRun(r).problems).toEqual([
      'round 1, step 1: its worker "Gamma" is not one of the 3 in the pool.',
    ]);
    stepAt(r, 0).workerName = "Beta";
    expect(checkRun(r).problems).toEqual([
      'round 1, step 1: its worker "zed" is not one of the 3 in the pool.',
    ]);
  });

  it("opens a sketch step with no worker or on a worker that left, and names the one shown", () => {
    const r = base();
    lists(r).workerIds = ["gone", "b", "c"];
    Object.assign(stepAt(r, 0), { worker: "gone", workerName: "Gone worker", status: "idle" });
    expect(checkRun(r)).toEqual({
      problems: [],
      notes: [
        'round 1: the Conductor was shown "Gone worker" (Model id 0), which is no longer in the pool.',
        'round 1, step 1: its worker "Gone worker" is not one of the 3 in the pool.',
      ],
    });
    const blank = base();
    Object.assign(stepAt(blank, 0), { worker: "", workerName: "", status: "idle" });
    expect(checkRun(blank).notes).toContain("round 1, step 1 has no worker chosen yet.");
    const ran = base();
    Object.assign(stepAt(ran, 0), { worker: "", workerName: "" });
    expect(checkRun(ran).problems).toEqual(["round 1, step 1 has no worker chosen yet."]);
  });

  it("refuses a whitespace subtask even on a step that never ran", () => {
    const r = base();
    Object.assign(stepAt(r, 0), { subtask: "  ", status: "idle" });
    lists(r).subtasks[0] = "  ";
    expect(checkRun(r).problems).toEqual([
      "round 1, step 1 has an empty subtask (only whitespace).",
    ]);
  });

  it("refuses a nested workflow on a worker not in the pool, and one with the wrong depth", () => {
    const r = base();
    stepAt(r, 1).worker = "zed";
    stepAt(r, 1).workerName = "zed";
    expect(checkRun(r).problems).toEqual([
      'round 1, step 2: its worker "zed" is not one of the 3 in the pool.',
      "round 1, step 2 holds a nested workflow, but its worker is not the Conductor.",
    ]);
    const deep = base();
    stepAt(deep, 1).nested!.depth = 2;
    expect(checkRun(deep).problems).toEqual([
      "round 1, step 2: its nested workflow says depth 2, not 1.",
    ]);
  });

  it("checks nested workflows at every level, and refuses more levels than the cap", () => {
    const nestTo = (levels: number): RunRecord => {
      const r = base();
      let owner = stepAt(r, 1);
      const template = structuredClone(owner.nested!);
      for (let d = 2; d <= levels; d++) {
        const inner = owner.nested!.rounds[0]!.steps;
        const child: StepRecord = { ...structuredClone(stepAt(r, 1)), index: inner.length };
        child.nested = { ...structuredClone(template), depth: d };
        inner.push(child);
        owner = child;
      }
      return r;
    };
    expect(checkRun(nestTo(2)).problems).toEqual([]);
    expect(checkRun(nestTo(MAX_NESTING)).problems).toEqual([]);
    const over = checkRun(nestTo(MAX_NESTING + 1)).problems;
    expect(over).toHaveLength(1);
    expect(over[0]).toMatch(/: nested workflows go deeper than 8 levels\.$/);
  });
});

describe("importRunChecked: refusals", () => {
  const doc = () => JSON.parse(V4) as { run: RunRecord; version: number };

  it("lists the first three problems and counts the rest", () => {
    const d = doc();
    d.run.rounds[0]!.index = 4;
    d.run.rounds[0]!.lists!.model_id = [7, 8];
    d.run.rounds[0]!.steps[0]!.index = 3;
    const r = importRunChecked(JSON.stringify(d));
    expect(r).toEqual({
      ok: false,
      code: "invalid_file",
      message:
        "The file does not match the export format: round 1 is numbered 4. " +
        "round 1: model_id[0] is 7, not one of the 3 workers its prompt showed. " +
        "round 1: model_id[1] is 8, not one of the 3 workers its prompt showed. (and 1 more)",
    });
    d.run.rounds[0]!.steps[0]!.index = 0;
    const three = importRunChecked(JSON.stringify(d));
    expect(!three.ok && three.message).toMatch(/showed\.$/);
  });

  it("refuses a mislabelled version 1 file with the invalid_file code and the whole reason", () => {
    const d = doc();
    d.version = 1;
    const r = importRunChecked(JSON.stringify(d));
    expect(r).toMatchObject({ ok: false, code: "invalid_file" });
    expect(!r.ok && r.message).toMatch(
      /holds a nested workflow, which version 1 files cannot: it looks like a newer file with the wrong version\. Nothing was migrated\.$/,
    );
  });

  it("refuses odd documents by their shape, never throwing", () => {
    for (const text of ["null", "5", "[]", '"run"']) {
      expect(importRunChecked(text)).toMatchObject({ ok: false, code: "bad_format" });
    }
    const odd = {
      format: "conductor-studio/run",
      version: 1,
      run: { rounds: [null, { steps: 3 }] },
    };
    const r = importRunChecked(JSON.stringify(odd));
    expect(r).toMatchObject({ ok: false, code: "invalid_file" });
    expect(!r.ok && r.message).not.toMatch(/migration from version/);
  });

  it("clips a long schema refusal", () => {
    const d = doc();
    (d.run as unknown as Record<string, unknown>).question = 5;
    (d.run as unknown as Record<string, unknown>)["x".repeat(2000)] = 1;
    d.run.pool.forEach((w) => ((w as unknown as Record<string, unknown>).name = 7));
    const r = importRunChecked(JSON.stringify(d));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message.length).toBeLessThanOrEqual(400);
  });

  it("drops the Conductor's secret header values", () => {
    const d = doc();
    d.run.conductor = { ...d.run.conductor!, headers: { "X-Key": "conductor-secret" } };
    const r = importRunChecked(JSON.stringify(d));
    expect(r.ok && r.record.conductor?.headers).toEqual({ "X-Key": "[redacted]" });
  });
});
