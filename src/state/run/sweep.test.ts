import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { emptyRecord, stepRecord } from "../../engine/run/record.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import { RunStore } from "../../engine/store/db.ts";
import { markInterruptedRuns } from "./sweep.ts";

// A reload while another run was open left that one "running" in History for ever.

const pool = [
  {
    id: "w0",
    name: "W",
    kind: "openai" as const,
    baseURL: "",
    model: "m",
    temperature: 0.2,
    maxTokens: 64,
    prefill: false,
  },
];

function run(id: string, status: RunRecord["status"]): RunRecord {
  const base = { ...emptyRecord(id), question: `Q ${id}`, pool, createdAt: 1, status };
  const step = (i: number, s: "done" | "running") => ({
    ...stepRecord(base, { worker: "w0", subtask: `s${i}`, access: [] }, i),
    status: s,
    output: s === "done" ? "finished" : "part of an ans",
  });
  return {
    ...base,
    rounds: [
      {
        index: 0,
        plan: null,
        lists: null,
        steps: [step(0, "done"), step(1, "running")],
        answer: null,
        accepted: false,
      },
    ],
  };
}

describe("markInterruptedRuns", () => {
  it("stores every planning or running run as interrupted, keeping its text; others and live ones stay", async () => {
    const store = new RunStore("sweep", { indexedDB: new IDBFactory(), IDBKeyRange });
    for (const r of [
      run("a", "running"),
      run("b", "planning"),
      run("c", "done"),
      run("live", "running"),
    ])
      await store.saveRun(r);
    expect(await markInterruptedRuns(store, (id) => id === "live")).toBe(2);
    const status = async (k: string) => {
      const got = await store.getRun(k);
      return got?.ok ? got.record : null;
    };
    const a = await status("a");
    expect(a?.status).toBe("interrupted");
    expect(a?.rounds[0]?.steps.map((s) => [s.status, s.output])).toEqual([
      ["done", "finished"],
      ["interrupted", "part of an ans"],
    ]);
    expect((await status("b"))?.status).toBe("interrupted");
    expect((await status("c"))?.status).toBe("done");
    expect((await status("live"))?.status).toBe("running");
    const rows = await store.listRuns({ status: "interrupted" });
    expect(rows.map((r) => r.key).sort()).toEqual(["a", "b"]);
    // The others are not marked twice; without the live filter the live run is marked too.
    expect(await markInterruptedRuns(store)).toBe(1);
  });
});
