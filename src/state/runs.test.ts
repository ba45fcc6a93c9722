import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { beforeEach, describe, expect, it } from "vitest";
import type { ChatBody } from "../../e2e/server/server.ts";
import { readFileSync } from "node:fs";
import { totalsOf } from "../engine/run/totals.ts";
import { RunStore } from "../engine/store/db.ts";
import { planNow, resumeNow, runNow } from "./run/controller.ts";
import { DRAFT_KEY, autosaveDraft, restoreDraft } from "./run/draft.ts";
import { exportText, openExport } from "./run/files.ts";
import { runStore, setRunStore } from "./storage/runStore.ts";
import { useStudio } from "./slices/store.ts";
import {
  memoryStorage,
  numberedWorker,
  resetStudio,
  serverForFile,
} from "../test-support/state/studio-state.ts";

/** One Storage in memory for the whole file (the tests run outside a browser). */
const storage = memoryStorage();
const server = serverForFile();
let n = 0;

const worker = (i: number) => numberedWorker(server(), i);
const PLAN = [
  "Two tries, then a check.",
  "model_id = [0, 1, 2]",
  'subtasks = ["Solve it one way", "Solve it another way", "Compare both and answer"]',
  'access_list = [[], [], ["all"]]',
].join("\n");

const store = () => runStore()!;
const callsTo = (model: string) =>
  server().requests.filter((r) => (r.body as ChatBody | undefined)?.model === model);

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const until = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

beforeEach(() => {
  server().reset();
  setRunStore(new RunStore(`runs-${n++}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  resetStudio();
  const s = useStudio.getState();
  s.setPool([worker(0), worker(1), worker(2)]);
  s.setConductor({ backend: "remote", baseURL: server().baseURL, model: "conductor" });
  s.setQuestion("What is 6 times 7?");
  server().script("conductor", PLAN);
  for (let i = 0; i < 3; i++) {
    let calls = 0;
    server().setDefault(`m${i}`, () => `m${i} #${++calls}`);
  }
});

describe("runs are stored records", () => {
  it("a planned run runs as itself; each re-run is a new run whose totals are its own calls", async () => {
    await planNow();
    const planned = useStudio.getState().record.id;
    await runNow();
    expect(useStudio.getState().record.id).toBe(planned);
    await runNow();
    await runNow(useStudio.getState().history.present.steps[1]!.id);
    const rows = await store().listRuns();
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r.kind).sort()).toEqual(["planned", "rerun", "rerun"]);
    const calls = [4, 3, 2]; // plan + 3 steps; all 3 steps again; steps 2 and 3
    for (const [i, row] of [...rows].reverse().entries()) {
      const got = await store().getRun(row.key);
      if (!got?.ok) throw new Error("missing run");
      expect(got.record.status).toBe("done");
      expect(got.record.totals).toEqual(totalsOf(got.record));
      expect(got.record.totals.calls).toBe(calls[i]);
      if (i > 0) expect(got.record.parentId).toBe(rows[rows.length - i]!.runId);
    }
    expect(callsTo("m0")).toHaveLength(2);
    expect(callsTo("m1")).toHaveLength(3);
  });

  it("an import during a run opens as its own stored run; the live run finishes into its own record", async () => {
    await planNow();
    server().setDefault("m2", { content: "slow check", latencyMs: 300 });
    const running = runNow();
    const liveId = useStudio.getState().record.id;
    await waitFor(() => callsTo("m2").length === 1, "the slow step");
    // A version-3 file: it opens migrated, and exports as this version writes it.
    const file = readFileSync(
      new URL("../engine/run/fixtures/run-v3-nested.json", import.meta.url),
      "utf8",
    );
    const v4 = readFileSync(
      new URL("../engine/run/fixtures/run-v4-nested.json", import.meta.url),
      "utf8",
    );
    expect(await openExport(file)).toBeNull();
    expect(useStudio.getState().record.id).toBe("nested");
    await running;
    const s = useStudio.getState();
    expect(s.record.id).toBe("nested");
    expect(s.pool.map((w) => w.id)).toEqual(["w0", "w1", "w2"]);
    expect(exportText(s, "run")).toBe(v4);
    const live = await store().getRun(liveId);
    expect(live?.ok && live.record).toMatchObject({
      question: "What is 6 times 7?",
      status: "done",
      answer: "slow check",
    });
    const imported = await store().getRun("nested");
    expect(imported?.ok && imported.meta.kind).toBe("imported");
    expect(imported?.ok && imported.text).toBe(v4);
  });

  it("brings back the draft and the open run; a run cut off mid-way resumes only its unfinished steps", async () => {
    const stop = autosaveDraft(storage, null);
    await planNow();
    server().setDefault("m1", { content: "never arrives", latencyMs: 5000 });
    void runNow();
    await waitFor(
      () =>
        useStudio.getState().results[useStudio.getState().history.present.steps[0]!.id]?.status ===
        "done",
      "step 1",
    );
    // Wait (on conditions) until the draft and the record with step 1's output are stored.
    const id = useStudio.getState().record.id;
    for (let until = Date.now() + 5000; ;) {
      const got = await store().getRun(id);
      if (
        storage.getItem(DRAFT_KEY) &&
        got?.ok &&
        got.record.rounds[0]?.steps[0]?.status === "done"
      )
        break;
      if (Date.now() > until) throw new Error("timed out waiting for the stored draft and run");
    }
    stop();
    // The page goes away: a fresh store state on the same database.
    resetStudio();
    useStudio.getState().setPool([worker(0), worker(1), worker(2)]);
    useStudio
      .getState()
      .setConductor({ backend: "remote", baseURL: server().baseURL, model: "conductor" });
    await restoreDraft(storage);
    const s = useStudio.getState();
    expect(s.question).toBe("What is 6 times 7?");
    expect(s.record.id).toBe(id);
    expect(s.record.status).toBe("interrupted");
    expect(s.record.rounds[0]!.steps.map((st) => st.status)).toEqual([
      "done",
      "interrupted",
      "interrupted",
    ]);
    server().reset();
    server().setDefault("m1", "m1 again");
    server().setDefault("m2", "m2 again");
    await resumeNow();
    expect(callsTo("m0")).toHaveLength(0);
    expect(callsTo("m1")).toHaveLength(1);
    expect(callsTo("m2")).toHaveLength(1);
    expect(useStudio.getState().record).toMatchObject({
      kind: "resumed",
      parentId: id,
      status: "done",
      answer: "m2 again",
    });
  });
});
