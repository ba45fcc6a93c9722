// Marks stored runs whose page went away as interrupted, so History offers Resume.
import { interrupted } from "../../engine/run/continue.ts";
import type { RunStore } from "../../engine/store/db.ts";

/**
 * A fresh page runs nothing, so a stored run still "planning" or "running" lost its page: another
 * run was open when the page went away (the open one is handled by `restoreDraft`), or the tab
 * closed. Each is stored as interrupted, its finished steps and partial text kept, so History
 * says so and offers Resume instead of showing it running forever. Runs this page has started
 * since it loaded (`live`) are left alone. Returns how many were marked.
 */
export async function markInterruptedRuns(
  store: RunStore,
  live: (runId: string) => boolean = () => false,
): Promise<number> {
  const rows = [
    ...(await store.listRuns({ status: "running" })),
    ...(await store.listRuns({ status: "planning" })),
  ];
  let marked = 0;
  for (const row of rows) {
    if (live(row.runId)) continue;
    const got = await store.getRun(row.key);
    if (!got?.ok) continue;
    const stopped = interrupted(got.record);
    if (stopped === got.record) continue;
    const saved = await store.saveRun(stopped, { key: row.key });
    if (saved.ok) marked++;
  }
  return marked;
}
