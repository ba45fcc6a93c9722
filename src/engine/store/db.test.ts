import { Dexie } from "dexie";
import { IDBFactory, IDBKeyRange, IDBObjectStore } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportRun } from "../run/export.ts";
import { emptyRecord } from "../run/record.ts";
import type { RunRecord } from "../schema/record.ts";
import { RunStore, isQuotaError } from "./db.ts";
import { V3_RUN_FIELDS } from "../../test-support/engine/run/run-records.ts";

let store: RunStore;
let factory: IDBFactory;
let name = "";
let n = 0;
beforeEach(() => {
  factory = new IDBFactory();
  name = `test-${n++}`;
  store = new RunStore(name, { indexedDB: factory, IDBKeyRange });
});
afterEach(() => store.close());

function run(id: string, question: string, over: Partial<RunRecord> = {}): RunRecord {
  return {
    ...emptyRecord(id),
    question,
    status: "done",
    createdAt: 1000 + n++,
    planningMs: 100,
    executionMs: 400,
    totals: { promptTokens: 10, completionTokens: 5, cost: 0.01, estimated: false, calls: 2 },
    ...over,
  };
}

describe("RunStore", () => {
  it("saves and reads a run back exactly, with its history row", async () => {
    const r = run("a", "Is 391 prime?\nExplain.");
    expect(await store.saveRun(r)).toEqual({ ok: true, key: "a" });
    const back = await store.getRun("a");
    expect(back?.ok && back.record).toEqual(r);
    expect(back?.ok && back.meta).toMatchObject({
      question: "Is 391 prime?",
      tokens: 15,
      durationMs: 500,
      status: "done",
      kind: "manual",
      starred: false,
    });
    expect(await store.getRun("missing")).toBeNull();
  });

  it("lists newest first, searches question and title, filters by status and star", async () => {
    await store.saveRun(run("a", "alpha question", { createdAt: 1 }));
    await store.saveRun(run("b", "beta question", { createdAt: 2, status: "failed" }));
    await store.saveRun(run("c", "gamma", { createdAt: 3 }));
    expect((await store.listRuns()).map((m) => m.key)).toEqual(["c", "b", "a"]);
    expect((await store.listRuns({ text: "QUESTION" })).map((m) => m.key)).toEqual(["b", "a"]);
    expect((await store.listRuns({ status: "failed" })).map((m) => m.key)).toEqual(["b"]);
    await store.updateMeta("c", { starred: true, title: "My favourite" });
    expect((await store.listRuns({ starred: true })).map((m) => m.key)).toEqual(["c"]);
    expect((await store.listRuns({ text: "favourite" })).map((m) => m.key)).toEqual(["c"]);
    expect((await store.listRuns({ text: "My Fav" })).map((m) => m.key)).toEqual(["c"]);
    // A later save of the same run keeps the user's title and star.
    await store.saveRun(run("c", "gamma", { createdAt: 3 }));
    expect((await store.listRuns({ starred: true }))[0]?.title).toBe("My favourite");
  });

  it("links children to their parent", async () => {
    await store.saveRun(run("p", "q"));
    await store.saveRun(run("c1", "q", { parentId: "p", kind: "rerun" }));
    await store.saveRun(run("c2", "q", { parentId: "p", kind: "retry" }));
    expect((await store.childrenOf("p")).map((m) => m.key)).toEqual(["c1", "c2"]);
  });

  it("deletes and undoes the delete", async () => {
    await store.saveRun(run("a", "q"));
    const removed = await store.deleteRuns(["a"]);
    expect(await store.getRun("a")).toBeNull();
    await store.restore(removed);
    expect((await store.getRun("a"))?.ok).toBe(true);
  });

  it("reads a stored record written at an older export version through the migrations", async () => {
    const v3 = exportRun(run("old", "q"), "2026-01-01T00:00:00.000Z");
    const doc = JSON.parse(v3) as { version: number; run: Record<string, unknown> };
    // The same run as version 2 wrote it: none of the v3 fields.
    for (const k of V3_RUN_FIELDS) delete doc.run[k];
    doc.version = 2;
    await store.saveRun(run("old", "q"));
    // Overwrite the stored text with the version-2 document, as an older app would have left it.
    const raw = new Dexie(name, { indexedDB: factory, IDBKeyRange });
    raw.version(1).stores({ runs: "key", records: "key", kv: "key" });
    await raw.table("records").put({ key: "old", version: 1, run: JSON.stringify(doc) });
    raw.close();
    const back = await store.getRun("old");
    expect(back?.ok && back.record).toEqual({
      ...run("old", "q"),
      kind: "manual",
      createdAt: null,
      planningMs: null,
      executionMs: null,
    });
  });

  it("refuses a row written by a newer app (its row version), naming the version", async () => {
    await store.saveRun(run("new", "q"));
    const raw = new Dexie(name, { indexedDB: factory, IDBKeyRange });
    raw.version(1).stores({ runs: "key", records: "key", kv: "key" });
    const text = exportRun(run("new", "q"), "2026-01-01T00:00:00.000Z");
    await raw.table("records").put({ key: "new", version: 2, run: text });
    raw.close();
    const back = await store.getRun("new");
    expect(back).toMatchObject({ ok: false, code: "stored_invalid" });
    expect(back?.ok === false && back.message).toContain("stored run version 2");
  });

  it("turns a full disk into a clear failure and keeps the stored version whole", async () => {
    const r = run("a", "first");
    await store.saveRun(r);
    const proto = IDBObjectStore.prototype as { put: IDBObjectStore["put"] };
    const put = proto.put;
    let calls = 0;
    proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore["put"]>) {
      // The record goes in; the row after it hits the quota: the transaction must roll back.
      if (++calls === 2) throw new DOMException("full", "QuotaExceededError");
      return put.apply(this, args);
    };
    try {
      const result = await store.saveRun({ ...r, question: "second", answer: "changed" });
      expect(result).toMatchObject({ ok: false, code: "storage_full" });
      expect(!result.ok && result.message).toMatch(/no room left/);
    } finally {
      proto.put = put;
    }
    const back = await store.getRun("a");
    expect(back?.ok && back.record.question).toBe("first");
    expect(back?.ok && back.meta.question).toBe("first");
  });

  it("recognises quota errors wrapped by Dexie", () => {
    expect(isQuotaError({ name: "AbortError", inner: { name: "QuotaExceededError" } })).toBe(true);
    expect(isQuotaError(new Error("x"))).toBe(false);
  });

  it("keeps values (the draft) with their version", async () => {
    await store.setValue("draft", 1, { question: "q" });
    expect(await store.getValue("draft")).toEqual({
      key: "draft",
      version: 1,
      value: { question: "q" },
    });
  });
});
