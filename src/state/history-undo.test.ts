import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { emptyRecord } from "../engine/run/record.ts";
import { RunStore } from "../engine/store/db.ts";
import { UNDO_MS } from "./slices/history.ts";
import { deleteRuns, undoDelete } from "./run/historyController.ts";
import { setRunStore } from "./storage/runStore.ts";
import { useStudio } from "./slices/store.ts";

// Two deletes in a row: the second must not take away the first one's Undo.

let store: RunStore;
let n = 0;
beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  store = new RunStore(`undo-${n++}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  setRunStore(store);
  for (const id of ["a", "b", "c"])
    await store.saveRun({ ...emptyRecord(id), question: `Question ${id}`, createdAt: 1 });
});
afterEach(() => {
  vi.useRealTimers();
  useStudio.setState({ historyDeleted: null });
});

const stored = async () => (await store.listRuns()).map((r) => r.key).sort();

describe("deleting runs", () => {
  it("a delete while another can be undone joins it: Undo brings back both", async () => {
    await deleteRuns(["a"]);
    await deleteRuns(["b"]);
    expect(await stored()).toEqual(["c"]);
    expect(useStudio.getState().historyDeleted?.count).toBe(2);
    await undoDelete();
    expect(await stored()).toEqual(["a", "b", "c"]);
    expect((await store.getRun("a"))?.ok).toBe(true);
  });

  it("once the offer lapses, the next delete is undone alone", async () => {
    await deleteRuns(["a"]);
    vi.advanceTimersByTime(UNDO_MS);
    expect(useStudio.getState().historyDeleted).toBeNull();
    await deleteRuns(["b"]);
    await undoDelete();
    expect(await stored()).toEqual(["b", "c"]);
  });
});
