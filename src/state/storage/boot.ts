// Starts the studio's storage: stored settings loaded and kept saved, keys apart, stored runs.
import { requestPersistence } from "../../engine/store/browser-storage.ts";
import { autosaveDraft, guardUnload, restoreDraft } from "../run/draft.ts";
import { bootKeys } from "./keyring.ts";
import { readSettings, SETTINGS_KEY, settingsReport, settingsToStore } from "./persist.ts";
import { isBusy } from "../run/controller.ts";
import { refreshHistory } from "../run/historyController.ts";
import { runStore } from "./runStore.ts";
import { useStudio } from "../slices/store.ts";
import { markInterruptedRuns } from "../run/sweep.ts";

/**
 * Loads stored settings and keeps them saved as they change (browser only). Keys are saved apart,
 * and only while the user has opted in (keyring.ts). Settings that had to drop a field are written
 * back repaired at once, so the report (shown in the studio) is made once, not at every load;
 * unreadable ones (not JSON, a newer version) are left as they are until the user changes one.
 */
export function bootStudio(storage: Storage = localStorage): void {
  const read = readSettings(storage);
  useStudio.setState({ ...read.settings, settingsReport: settingsReport(read) });
  bootKeys(storage);
  let last = settingsToStore(useStudio.getState());
  if (read.dropped.length > 0 && !read.unreadable) storage.setItem(SETTINGS_KEY, last);
  let seen = useStudio.getState();
  useStudio.subscribe((s) => {
    if (s.pool === undefined) return;
    // Most updates (streamed output, keys) leave the settings alone: skip serialising the pool.
    const same = s.pool === seen.pool && s.conductor === seen.conductor;
    if (same && s.maxSteps === seen.maxSteps && s.telemetry === seen.telemetry) return;
    seen = s;
    const next = settingsToStore(s);
    if (next !== last) {
      last = next;
      storage.setItem(SETTINGS_KEY, next);
    }
  });
}

/**
 * Brings back the draft and the last open run, then keeps the draft saved; asks before leaving
 * the page while a run is in flight; asks the browser to keep stored runs (browser only).
 */
export async function bootRuns(): Promise<void> {
  guardUnload();
  void requestPersistence();
  try {
    await restoreDraft();
    const store = runStore();
    if (store) {
      // Not the run this page may have started since it loaded.
      const live = (id: string) => isBusy() && useStudio.getState().record.id === id;
      const marked = await markInterruptedRuns(store, live);
      if (marked) void refreshHistory();
    }
  } finally {
    autosaveDraft();
  }
}
