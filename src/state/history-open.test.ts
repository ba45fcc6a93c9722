import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { beforeEach, describe, expect, it } from "vitest";
import { emptyRecord } from "../engine/run/record.ts";
import { RunStore } from "../engine/store/db.ts";
import { refreshHistory } from "./run/historyController.ts";
import { openRun, openSettled } from "./run/open.ts";
import { setRunStore } from "./storage/runStore.ts";
import { useStudio } from "./slices/store.ts";

// Opening a run from a long History must not wait behind the background read of every row
// (bench/history.ts: 100,000 stored runs): the read holds between chunks and before it lists.

let store: RunStore;
let n = 0;
beforeEach(async () => {
  store = new RunStore(`open-${n++}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  setRunStore(store);
  useStudio.setState({ historyAll: [], historyEntries: [], historyRows: [] });
  for (let i = 0; i < 210; i++)
    await store.saveRun({ ...emptyRecord(`r${i}`), question: `Question ${i}`, createdAt: i });
});

describe("opening a run while History reads every row", () => {
  it("openSettled resolves only once the run being opened is on screen", async () => {
    const opened = openRun("r3");
    await openSettled();
    expect(useStudio.getState().openKey).toBe("r3");
    expect(await opened).toBeNull();
  });

  it("the full list is applied after the run the user opened, not before", async () => {
    const order: string[] = [];
    const offHistory = useStudio.subscribe((s) => {
      if (s.historyAll.length === 210 && !order.includes("listed")) order.push("listed");
    });
    const offStudio = useStudio.subscribe((s) => {
      if (s.openKey === "r7" && !order.includes("opened")) order.push("opened");
    });
    // History shows its first page; the user clicks a run while the rest is still being read.
    const listing = refreshHistory();
    await new Promise<void>((done) => {
      const off = useStudio.subscribe((s) => s.historyAll.length && (off(), done()));
    });
    const opened = openRun("r7");
    await Promise.all([listing, opened]);
    offHistory();
    offStudio();
    expect(order).toEqual(["opened", "listed"]);
  });
});
