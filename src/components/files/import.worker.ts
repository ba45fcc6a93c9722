/// <reference lib="webworker" />
import { importRun } from "../../engine/run/export.ts";

/** Reads an export off the main thread: JSON.parse and validation of megabytes take a while. */
self.onmessage = (e: MessageEvent<string>) => {
  const result = importRun(e.data);
  self.postMessage(
    result.ok ? { ok: true, record: result.record } : { ok: false, message: result.message },
  );
};
