// Where `serve` writes: one JSON line per run under --runs, and one stderr line per request.
// Neither ever holds a key: records go through the export (which redacts secret headers) and log
// lines carry only ids, statuses and figures.
import { createWriteStream } from "node:fs";
import type { WriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { formatCost } from "../../engine/cost.ts";
import { exportRun } from "../../engine/run/export.ts";
import { isObject } from "../../engine/schema/guards.ts";
import type { RunRecord } from "../../engine/schema/record.ts";

/** What `serve` adds to each record line: how the request went. */
export interface ServedMeta {
  request_id: string;
  received_at: string;
  stream: boolean;
  /** The status the client got: 200 for a stream that had opened, even if it ended in an error. */
  http_status: number;
  /** The error `code` the client got (an HTTP error, or a stream's error event); null for an answer. */
  error_code: string | null;
  /** True when the client went away before the answer was complete. */
  client_disconnected: boolean;
}

export interface RunLog {
  /** The file the next line goes to. */
  readonly path: string;
  append(record: RunRecord, meta: ServedMeta): Promise<void>;
  close(): Promise<void>;
}

export interface RunLogOptions {
  /** A file past this size is closed and the next line starts a new one (default 256 MiB). */
  maxBytes?: number;
  now?: Date;
}

/**
 * A run log at `DIR/runs-<start time>-<pid>.jsonl` (replicas sharing DIR never interleave), which
 * rotates by size to `...-<pid>-2.jsonl`, `-3`, ...; no file is ever deleted (the runs were paid
 * for). The directory is made now, so a bad --runs fails at start; a file only with its first line.
 */
export async function openRunLog(dir: string, o: RunLogOptions = {}): Promise<RunLog> {
  await mkdir(dir, { recursive: true });
  const maxBytes = o.maxBytes ?? 256 * 1024 * 1024;
  const stamp = (o.now ?? new Date()).toISOString().replace(/[:.]/g, "-");
  const base = join(dir, `runs-${stamp}-${process.pid}`);
  let part = 1;
  let path = `${base}.jsonl`;
  let size = 0;
  let out: WriteStream | undefined;
  let failed: Error | undefined;
  const end = (stream: WriteStream | undefined) =>
    new Promise<void>((resolve) => (stream ? stream.end(() => resolve()) : resolve()));
  return {
    get path() {
      return path;
    },
    append(record, meta) {
      if (failed) return Promise.reject(failed);
      // The export is the one writer that knows what may leave the process; compact it to a line.
      const doc: unknown = JSON.parse(exportRun(record));
      const line = `${JSON.stringify({ ...(isObject(doc) ? doc : {}), served: meta })}\n`;
      const bytes = Buffer.byteLength(line);
      if (out && size > 0 && size + bytes > maxBytes) {
        // Lines are whole: a record never straddles two files.
        void end(out);
        out = undefined;
        part += 1;
        path = `${base}-${part}.jsonl`;
        size = 0;
      }
      // An unwritable file must fail the append (the caller logs it), never crash the server.
      out ??= createWriteStream(path, { flags: "a" }).on("error", (e) => (failed = e));
      const stream = out;
      size += bytes;
      return new Promise((resolve, reject) =>
        stream.write(line, (e) => (e ? reject(e) : resolve())),
      );
    },
    close: () => end(out),
  };
}

/** The stderr summary of one served run. */
export function runLine(id: string, status: number, record: RunRecord, ms: number): string {
  const t = record.totals;
  const tokens = t.promptTokens + t.completionTokens;
  const fallback = record.rounds[0]?.fallback;
  const why = fallback
    ? ` (fallback: ${fallback.reason.code})`
    : record.endReason
      ? ` (${record.endReason})`
      : "";
  return `${id} ${status} ${record.status}${why} ${tokens} tokens ${formatCost(t.cost)} ${(ms / 1000).toFixed(2)}s`;
}
