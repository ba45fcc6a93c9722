// Writes a streaming run to the run store: throttled, and at once when a step or the run ends.
import type { RunEvent } from "../../engine/schema/events.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import type { SaveMeta } from "../../engine/store/db.ts";
import { runStore } from "./runStore.ts";

/** At most one write of a streaming run per this many milliseconds (and one at every step end). */
export const WRITE_INTERVAL_MS = 500;

/** Events after which the record is written at once: a step or a plan or the run ended. */
export function endsSomething(e: RunEvent): boolean {
  return (
    e.type === "step_finish" ||
    e.type === "step_error" ||
    e.type === "step_cancel" ||
    e.type === "plan_finish" ||
    e.type === "round_finish" ||
    e.type === "run_finish"
  );
}

type Listener = (message: string | null) => void;

/**
 * Writes one run's record while it streams: throttled to WRITE_INTERVAL_MS, at once after a
 * step ends, always the latest version, one write at a time, from a timer (never inside the
 * frame that applied the events). `flush` waits for the last write.
 */
export function createRunWriter(meta: SaveMeta, onResult: Listener) {
  let latest: RunRecord | null = null;
  let lastWrite = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> = Promise.resolve();

  const write = () => {
    timer = null;
    const record = latest;
    latest = null;
    const store = runStore();
    if (!record || !store) return;
    lastWrite = Date.now();
    writing = writing.then(async () => {
      const result = await store.saveRun(record, meta);
      onResult(result.ok ? null : result.message);
    });
  };

  return {
    /** Notes the run's latest record; `now` writes it without waiting for the interval. */
    touch(record: RunRecord, now: boolean) {
      latest = record;
      const wait = now ? 0 : Math.max(0, lastWrite + WRITE_INTERVAL_MS - Date.now());
      if (timer !== null) {
        if (!now) return;
        clearTimeout(timer);
      }
      timer = setTimeout(write, wait);
    },
    async flush(): Promise<void> {
      if (timer !== null) {
        clearTimeout(timer);
        write();
      }
      await writing;
    },
  };
}
