// The run export's migrations on files the fixtures do not show: old runs with or without plans
// and times, pools whose workers lack ids, odd shapes a migration must pass to the schema rather
// than crash on, and upgradeRunObject on today's shape.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importRun, poolIds, upgradeRunObject } from "./export.ts";

type Json = Record<string, unknown>;
const V2 = readFileSync(new URL("./fixtures/run-v2-nested.json", import.meta.url), "utf8");
const v2 = () => JSON.parse(V2) as { run: Json & { rounds: Json[] } };
const imported = (doc: unknown) => {
  const r = importRun(JSON.stringify(doc));
  if (!r.ok) throw new Error(r.message);
  return r.record;
};

describe("migrating a v2 run to a stored run (v3)", () => {
  it("is planned when a round has a plan, manual when none has", () => {
    expect(imported(v2()).kind).toBe("planned");
    const manual = v2();
    for (const round of manual.run.rounds) round.plan = null;
    expect(imported(manual)).toMatchObject({ kind: "manual", planningMs: null });
  });

  it("sums the planning time of the plans that finished, never below zero", () => {
    const d = v2();
    const plan = d.run.rounds[0]!.plan as Json;
    Object.assign(plan, { startedAt: 100, finishedAt: 350 });
    d.run.rounds.push({ ...structuredClone(d.run.rounds[0]!), index: 1 });
    Object.assign(d.run.rounds[1]!.plan as Json, { startedAt: 900, finishedAt: 400 });
    d.run.maxRounds = 2;
    expect(imported(d).planningMs).toBe(250);
    Object.assign(plan, { finishedAt: null });
    Object.assign(d.run.rounds[1]!.plan as Json, { startedAt: null, finishedAt: 5 });
    expect(imported(d).planningMs).toBeNull();
  });

  it("takes its created time from when it started, or none", () => {
    const d = v2();
    d.run.startedAt = 42;
    expect(imported(d).createdAt).toBe(42);
    d.run.startedAt = null;
    d.run.finishedAt = null;
    expect(imported(d).createdAt).toBeNull();
  });
});

describe("migrations on odd shapes", () => {
  it.each<[string, unknown]>([
    ["a run that is no object", null],
    ["rounds that are no list", { rounds: "none" }],
    ["rounds that are no objects, and steps that are no list", { rounds: [null, { steps: 3 }] }],
    ["steps that are no objects", { pool: "x", rounds: [{ steps: [null, 4], lists: null }] }],
  ])("refuses %s through the schema, not a failed migration", (_what, run) => {
    for (const version of [1, 2, 3]) {
      const r = importRun(JSON.stringify({ format: "conductor-studio/run", version, run }));
      expect(r).toMatchObject({ ok: false, code: "invalid_file" });
      expect(!r.ok && r.message).not.toMatch(/migration from version/);
    }
  });
});

describe("versions", () => {
  it("names the format and both versions when a file is newer than this app", () => {
    const r = importRun(JSON.stringify({ ...v2(), version: 99 }));
    expect(r).toMatchObject({ ok: false, code: "newer_version" });
    expect(!r.ok && r.message).toContain("It is run export version 99; this app reads up to 4.");
  });
});

describe("poolIds and upgradeRunObject", () => {
  it("reads a pool's ids by place, a place without an id as model-id-N", () => {
    expect(poolIds("not a pool")).toEqual([]);
    expect(poolIds([{ name: "first" }, { id: "b" }])).toEqual(["model-id-0", "b"]);
    expect(poolIds([{ id: "a" }, 5, { id: 3 }, { name: "x" }])).toEqual([
      "a",
      "model-id-1",
      "model-id-2",
      "model-id-3",
    ]);
  });

  it("brings a v3 run object to ids, nested rounds too, and leaves today's unchanged", () => {
    const old = {
      pool: [{ id: "a" }, { id: "c" }],
      rounds: [
        {
          lists: { model_id: [1] },
          steps: [
            {
              worker: 1,
              nested: { rounds: [{ lists: null, steps: [{ worker: 0, nested: null }] }] },
            },
          ],
        },
      ],
    };
    const today = upgradeRunObject(old);
    expect(today).toEqual({
      pool: old.pool,
      rounds: [
        {
          lists: { model_id: [1], workerIds: ["a", "c"] },
          steps: [
            {
              worker: "c",
              nested: { rounds: [{ lists: null, steps: [{ worker: "a", nested: null }] }] },
            },
          ],
        },
      ],
    });
    expect(upgradeRunObject(today)).toEqual(today);
    const kept = { pool: [{ id: "a" }], rounds: [{ lists: { workerIds: ["z"] }, steps: [] }] };
    expect(upgradeRunObject(kept)).toEqual(kept);
    expect(upgradeRunObject("x")).toBe("x");
  });
});
