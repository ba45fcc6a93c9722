import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { beforeEach, describe, expect, it } from "vitest";
import { emptyRecord } from "../../engine/run/record.ts";
import { RunStore } from "../../engine/store/db.ts";
import { deleteRuns, refreshHistory, setHistoryOpen } from "../run/historyController.ts";
import { setRunStore } from "../storage/runStore.ts";
import { useStudio } from "./store.ts";
import { resetStudio } from "../../test-support/state/studio-state.ts";

// History's slice of the one store: what it lists, and a selection that only ever names listed runs.

let store: RunStore;
let n = 0;
beforeEach(async () => {
  resetStudio();
  store = new RunStore(`history-${n++}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  setRunStore(store);
  for (const [id, question] of [
    ["a", "Why is the sky blue?"],
    ["b", "Why is the sea salty?"],
    ["c", "How far is the moon?"],
  ] as const)
    await store.saveRun({ ...emptyRecord(id), question, createdAt: 1 });
});

const listed = () =>
  useStudio
    .getState()
    .historyRows.map((r) => r.key)
    .sort();

describe("the History list", () => {
  it("starts closed and empty, and selecting toggles one run at a time", () => {
    const s = useStudio.getState();
    expect(s.historyOpen).toBe(false);
    expect([s.historyAll, s.historyEntries, s.historyRows, s.historySelected]).toEqual([
      [],
      [],
      [],
      [],
    ]);
    s.toggleHistorySelected("a");
    s.toggleHistorySelected("b");
    s.toggleHistorySelected("a");
    expect(useStudio.getState().historySelected).toEqual(["b"]);
    s.setHistoryCompare(["a", "b"]);
    expect(useStudio.getState().historyCompare).toEqual(["a", "b"]);
    s.setHistoryCompare(null);
    expect(useStudio.getState().historyCompare).toBeNull();
  });

  it("opening it reads the stored runs", async () => {
    setHistoryOpen(true);
    expect(useStudio.getState().historyOpen).toBe(true);
    await refreshHistory();
    expect(listed()).toEqual(["a", "b", "c"]);
    setHistoryOpen(false);
    expect(useStudio.getState().historyOpen).toBe(false);
  });

  it("a search keeps only the selected runs it still lists, and clearing it does not bring them back", async () => {
    await refreshHistory();
    const s = useStudio.getState();
    s.toggleHistorySelected("a");
    s.toggleHistorySelected("c");
    s.setHistoryQuery({ text: "why" });
    expect(listed()).toEqual(["a", "b"]);
    expect(useStudio.getState().historySelected).toEqual(["a"]);
    useStudio.getState().setHistoryQuery({ text: "" });
    expect(listed()).toEqual(["a", "b", "c"]);
    expect(useStudio.getState().historySelected).toEqual(["a"]);
    useStudio.getState().toggleHistorySelected("a");
    expect(useStudio.getState().historySelected).toEqual([]);
  });

  it("a deleted run leaves the list and the selection at once", async () => {
    await refreshHistory();
    useStudio.getState().toggleHistorySelected("b");
    useStudio.getState().toggleHistorySelected("c");
    await deleteRuns(["b"]);
    expect(listed()).toEqual(["a", "c"]);
    expect(useStudio.getState().historySelected).toEqual(["c"]);
    expect(useStudio.getState().historyDeleted?.count).toBe(1);
  });
});
