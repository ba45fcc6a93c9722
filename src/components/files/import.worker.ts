/// <reference lib="webworker" />
import { importRunChecked } from "../../engine/run/validate.ts";

/** Reads an export off the main thread: JSON.parse and validation of megabytes take a while.
// The same checks as openExport: schema, protocol invariants, pool size. */
self.onmessage = (e: MessageEvent<string>) => {
  const result = importRunChecked(e.data);
  self.postMessage(
    result.ok
      ? { ok: true, record: result.record, notes: result.notes }
      : { ok: false, code: result.code, message: result.message },
  );
};
