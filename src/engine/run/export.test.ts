import { z } from "zod";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { runConductor } from "../exec/simple-runs.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { RunEvent } from "../schema/events.ts";
import type { RunRecord } from "../schema/record.ts";
import { ConductorConfigSchema, WorkerSchema } from "../schema/worker.ts";
import { migrate } from "../schema/migrate.ts";
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  RUN_EXPORT_MIGRATIONS,
  exportRun,
  importRun,
} from "./export.ts";
import { recordOf } from "./record.ts";
import { V3_RUN_FIELDS } from "../../test-support/engine/run/run-records.ts";

const AT = "2026-02-03T04:05:06.000Z";
const FIXTURE_EXPORTED_AT = "2026-01-01T12:01:00.000Z";
const fixture = readFileSync(new URL("./fixtures/run-v1.json", import.meta.url), "utf8");

const plan = `Two tries and a check.
model_id = [0, 1, 0]
subtasks = ["Is 91 prime?", "Factor 91.", "Compare and answer."]
access_list = [[], [], ["all"]]`;

/** A real scripted run's record: plan, three steps (one with estimated usage), done. */
async function scriptedRecord(): Promise<RunRecord> {
  const pool = [
    WorkerSchema.parse({ id: "a", name: "Alpha", model: "alpha", price: { input: 2, output: 8 } }),
    WorkerSchema.parse({ id: "b", name: "Beta", model: "beta", note: "fast" }),
  ];
  let t = 1_700_000_000_000;
  const events: RunEvent[] = [];
  for await (const e of runConductor({
    question: "Is 91 prime?",
    pool,
    conductor: ConductorConfigSchema.parse({ model: "conductor-7b" }),
    conductorBackend: createFakeBackend([{ text: plan }]),
    backendFor: (w) =>
      createFakeBackend([
        { text: `${w.name} says 91 = 7 x 13.`, usage: w.id === "b" ? null : undefined },
      ]),
    signal: new AbortController().signal,
    runId: "run-91",
    now: () => (t += 10),
  }))
    events.push(e);
  return recordOf(events);
}

function expectFailure(text: string, code: string): string {
  const result = importRun(text);
  expect(result.ok).toBe(false);
  if (result.ok) return "";
  expect(result.code).toBe(code);
  return result.message;
}

let record: RunRecord;
beforeAll(async () => {
  record = await scriptedRecord();
});

describe("exportRun and importRun", () => {
  it("round-trips a record exactly, and re-exports byte for byte", () => {
    expect(record.status).toBe("done");
    const text = exportRun(record, AT);
    const result = importRun(text);
    expect(result).toEqual({ ok: true, record, migratedFrom: null });
    if (!result.ok) return;
    expect(exportRun(result.record, AT)).toBe(text);
  });

  it("keeps dragged positions, by step index, and an older file without them still imports", () => {
    const layout = { positions: { "0": { x: 10, y: -20 }, "2": { x: 300.5, y: 40 } } };
    const text = exportRun({ ...record, layout }, AT);
    expect((JSON.parse(text) as { run: { layout: unknown } }).run.layout).toEqual(layout);
    const result = importRun(text);
    expect(result.ok && result.record.layout).toEqual(layout);
    if (result.ok) expect(exportRun(result.record, AT)).toBe(text);
    // The same run as a file written before positions were kept: same version, no layout.
    const plain = importRun(exportRun(record, AT));
    expect(plain.ok && plain.record.layout).toBeUndefined();
    expect(exportRun(record, AT)).not.toContain('"layout"');
  });

  it("writes two-space JSON in the schema's key order, whatever the record's own order", () => {
    const text = exportRun(record, AT);
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect(
      text.startsWith(
        `{\n  "format": "${EXPORT_FORMAT}",\n  "version": ${EXPORT_VERSION},\n  "exportedAt": "${AT}",\n`,
      ),
    ).toBe(true);
    const shuffled = Object.fromEntries(Object.entries(record).reverse()) as RunRecord;
    expect(Object.keys(shuffled)[0]).toBe("totals");
    expect(exportRun(shuffled, AT)).toBe(text);
    expect(text.indexOf('"id": "run-91"')).toBeLessThan(text.indexOf('"question"'));
  });

  it("never writes a key, even one smuggled onto a worker or a step", () => {
    const leaky = structuredClone(record);
    Object.assign(leaky.pool[0] as object, { apiKey: "sk-live-SECRET-1" });
    Object.assign(leaky.conductor as object, { apiKey: "sk-live-SECRET-2" });
    Object.assign(leaky.rounds[0]?.steps[0] as object, { apiKey: "sk-live-SECRET-3" });
    const text = exportRun(leaky, AT);
    expect(text).not.toContain("SECRET");
    expect(text).not.toContain("apiKey");
    expect(text).toBe(exportRun(record, AT));
  });

  it("refuses text that is not JSON with bad_json", () => {
    expectFailure("{ not json", "bad_json");
    expectFailure(exportRun(record, AT).slice(0, 200), "bad_json");
  });

  it("refuses JSON that is not an export with bad_format", () => {
    expectFailure('{"format": "someone-else/run", "version": 1}', "bad_format");
    expectFailure("[]", "bad_format");
    expect(expectFailure("{}", "bad_format")).toContain(EXPORT_FORMAT);
  });

  it("refuses a newer version with a message that says what to do", () => {
    const text = exportRun(record, AT).replace(`"version": ${EXPORT_VERSION},`, '"version": 99,');
    const message = expectFailure(text, "newer_version");
    expect(message).toContain("newer version");
    expect(message).toContain("version 99");
    expect(message).toContain(`up to ${EXPORT_VERSION}`);
    expect(message).toContain("Update the app");
  });

  it("names the path of a field with the wrong type", () => {
    const text = exportRun(record, AT);
    // The second step record's attempts (the first "attempts" belongs to step 0).
    const second = text.indexOf('"attempts": 1', text.indexOf('"attempts": 1') + 1);
    const wrong = `${text.slice(0, second)}"attempts": "two"${text.slice(second + 13)}`;
    expect(expectFailure(wrong, "invalid_file")).toContain("run.rounds.0.steps.1.attempts");
    const noQuestion = exportRun(record, AT).replace(
      '"question": "Is 91 prime?"',
      '"question": 91',
    );
    expect(expectFailure(noQuestion, "invalid_file")).toContain("run.question");
  });

  it("never throws on garbage, and always says what is wrong", () => {
    const head = `{"format":"${EXPORT_FORMAT}"`;
    const odd = [
      "",
      " ",
      "null",
      "[]",
      "{}",
      "0",
      "-1",
      "3.5",
      "true",
      '"a string"',
      "NaN",
      "\uFEFF{}",
      "[".repeat(50_000),
      `${head}}`,
      `${head},"version":0}`,
      `${head},"version":1.5}`,
      `${head},"version":"1"}`,
      `${head},"version":1e400}`,
      `${head},"version":1,"run":null}`,
      `${head},"version":1,"run":{"__proto__":{"id":"x"}}}`,
      fixture.slice(0, Math.floor(fixture.length / 2)),
      fixture.replace('"run": {', '"run": ['),
    ];
    for (const text of odd) {
      const result = importRun(text);
      expect(result.ok, JSON.stringify(text.slice(0, 40))).toBe(false);
      if (result.ok) continue;
      expect(["bad_json", "bad_format", "invalid_file", "newer_version"]).toContain(result.code);
      expect(result.message.length).toBeGreaterThan(10);
    }
  });
});

describe("the run export's migration steps, one fixture each", () => {
  const Loose = z.record(z.string(), z.unknown());
  const load = (name: string) =>
    Loose.parse(JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8")));
  const runOf = (doc: Record<string, unknown>) => Loose.parse(doc.run);
  const stepsOf = (doc: Record<string, unknown>) =>
    z
      .array(z.object({ steps: z.array(Loose) }))
      .parse(runOf(doc).rounds)
      .flatMap((r) => r.steps);
  const one = (doc: Record<string, unknown>, from: number) => {
    const r = migrate(RUN_EXPORT_MIGRATIONS, doc, from, from + 1);
    if (!r.ok) throw new Error(r.message);
    return r.doc;
  };
  const checks: Record<number, () => void> = {
    2: () => {
      const v1 = load("run-v1.json");
      const v2 = one(v1, 1);
      expect(v2.version).toBe(2);
      expect(stepsOf(v2).map((st) => st.nested)).toEqual(stepsOf(v1).map(() => null));
      expect(Object.keys(runOf(v2))).toEqual(Object.keys(runOf(v1)));
    },
    3: () => {
      const v2 = load("run-v2-nested.json");
      const v3 = one(v2, 2);
      expect(v3.version).toBe(3);
      expect(runOf(v3)).toMatchObject({
        id: "nested",
        kind: "planned",
        parentId: null,
        kept: [],
        createdAt: 5,
        executionMs: null,
        prompt: null,
      });
    },
    4: () => {
      const v3 = load("run-v3-nested.json");
      const v4 = one(v3, 3);
      expect(v4.version).toBe(4);
      expect(stepsOf(v4).every((st) => typeof st.worker === "string")).toBe(true);
    },
  };

  it("every step has its fixture check", () => {
    expect(RUN_EXPORT_MIGRATIONS.steps.map((st) => st.id)).toEqual(Object.keys(checks).map(Number));
    expect(RUN_EXPORT_MIGRATIONS.current).toBe(EXPORT_VERSION);
  });
  for (const [id, check] of Object.entries(checks)) it(`step ${id}`, check);
});

describe("the version-1 fixture", () => {
  it("migrates v1 -> v4: steps gain nested: null and their worker's id, the run its v3 fields, the lists workerIds", () => {
    const result = importRun(fixture);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.migratedFrom).toBe(1);
    const Loose = z.record(z.string(), z.unknown());
    const v1 = z
      .object({
        run: Loose.and(
          z.object({
            pool: z.array(Loose.and(z.object({ id: z.string() }))),
            rounds: z.array(
              Loose.and(
                z.object({
                  lists: Loose,
                  steps: z.array(Loose.and(z.object({ worker: z.number() }))),
                }),
              ),
            ),
          }),
        ),
      })
      .parse(JSON.parse(fixture));
    const plans = v1.run.rounds.map((round) =>
      z.object({ plan: z.object({ startedAt: z.number(), finishedAt: z.number() }) }).parse(round),
    );
    const withNested = {
      ...v1.run,
      kind: "planned",
      parentId: null,
      kept: [],
      createdAt: v1.run.startedAt,
      planningMs: plans.reduce((ms, r) => ms + r.plan.finishedAt - r.plan.startedAt, 0),
      executionMs: null,
      prompt: null,
      rounds: v1.run.rounds.map((round) => ({
        ...round,
        lists: { ...round.lists, workerIds: ["gpt", "claude", "qwen"] },
        steps: round.steps.map((step) => ({
          ...step,
          worker: v1.run.pool[step.worker]?.id,
          nested: null,
        })),
      })),
    };
    expect(result.record).toEqual(withNested);
    expect(result.record).toMatchObject({ status: "done", endReason: "round_cap" });
    expect(Object.keys(result.record).slice(0, 9)).toEqual(["id", ...V3_RUN_FIELDS, "question"]);
    expect(result.record.rounds).toHaveLength(2);
    expect(result.record.rounds.map((r) => r.steps.map((st) => st.worker))).toEqual([
      ["gpt", "qwen", "claude"],
      ["qwen", "gpt"],
    ]);
    const text = exportRun(result.record, FIXTURE_EXPORTED_AT);
    const again = importRun(text);
    expect(again).toMatchObject({ ok: true, migratedFrom: null });
    // A v4 document re-exports byte for byte.
    expect(again.ok && exportRun(again.record, FIXTURE_EXPORTED_AT)).toBe(text);
  });

  it("migrates one version at a time: v1 -> v2 alone adds only nested: null", () => {
    const doc = z.record(z.string(), z.unknown()).parse(JSON.parse(fixture));
    const v2 = migrate(RUN_EXPORT_MIGRATIONS, doc, 1, 2);
    expect(v2.ok && v2.doc.version).toBe(2);
    const run = v2.ok ? z.object({ run: z.record(z.string(), z.unknown()) }).parse(v2.doc).run : {};
    expect("kind" in run).toBe(false);
    const v3 = v2.ok ? migrate(RUN_EXPORT_MIGRATIONS, v2.doc, 2, 3) : v2;
    expect(v3.ok && v3.doc.version).toBe(3);
  });
});

describe("the version-3 nested fixture", () => {
  const V3_EXPORTED_AT = "2026-11-30T00:00:00.000Z";
  const v3 = readFileSync(new URL("./fixtures/run-v3-nested.json", import.meta.url), "utf8");
  const v4 = readFileSync(new URL("./fixtures/run-v4-nested.json", import.meta.url), "utf8");

  it("migrates v3 -> v4: every step's pool place becomes that worker's id, nested ones too", () => {
    const result = importRun(v3);
    expect(result).toMatchObject({ ok: true, migratedFrom: 3 });
    if (!result.ok) return;
    const { pool, rounds } = result.record;
    expect(pool.map((w) => w.id)).toEqual(["a", "b", "c"]);
    const top = rounds[0];
    // v3: model_id [0, 2] on top, [1, 0] in the nested round.
    expect(top?.steps.map((s) => s.worker)).toEqual(["a", "c"]);
    expect(top?.lists).toMatchObject({ model_id: [0, 2], workerIds: ["a", "b", "c"] });
    const nested = top?.steps[1]?.nested?.rounds[0];
    expect(nested?.steps.map((s) => s.worker)).toEqual(["b", "a"]);
    expect(nested?.lists).toMatchObject({ model_id: [1, 0], workerIds: ["a", "b", "c"] });
    expect(top?.steps.map((s) => s.workerName)).toEqual(["Alpha", "The Conductor itself"]);
  });

  it("exports the migrated run as the v4 fixture, which re-exports byte for byte", () => {
    const migrated = importRun(v3);
    expect(migrated.ok && exportRun(migrated.record, V3_EXPORTED_AT)).toBe(v4);
    const again = importRun(v4);
    expect(again).toMatchObject({ ok: true, migratedFrom: null });
    expect(again.ok && exportRun(again.record, V3_EXPORTED_AT)).toBe(v4);
    expect(JSON.parse(v4)).toMatchObject({ version: EXPORT_VERSION });
    expect(EXPORT_VERSION).toBe(4);
  });

  it("names a step whose v3 pool place is past the pool's end, rather than dropping it", () => {
    const doc = JSON.parse(v3) as { run: { rounds: { steps: { worker: number }[] }[] } };
    doc.run.rounds[0]!.steps[0]!.worker = 4;
    const result = importRun(JSON.stringify(doc));
    expect(result.ok && result.record.rounds[0]?.steps[0]?.worker).toBe("model-id-4");
  });
});
