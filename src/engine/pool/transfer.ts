import { z } from "zod";
import { describeIssues, isObject } from "../schema/guards.ts";
import type { Result } from "../errors.ts";
import { failure } from "../errors.ts";
import type { Worker } from "../schema/worker.ts";
import { WorkerSchema } from "../schema/worker.ts";

/** The pool file's format name; a file without it is not a pool. */
export const POOL_FORMAT = "conductor-studio/pool";
/** The version this app writes and reads. */
export const POOL_VERSION = 1;

/** Header names that carry credentials: their values never reach a pool file. */
const SECRET_HEADER = /authorization|api[-_]?key|token|secret|cookie/i;

/**
 * A worker as a pool file holds it. `strictObject` refuses unknown fields on import, so a file that
 * smuggles a `key` or `apiKey` onto a worker is rejected rather than silently carried.
 */
const FileWorkerSchema = z.strictObject(WorkerSchema.shape);

export const PoolEnvelopeSchema = z.strictObject({
  format: z.literal(POOL_FORMAT),
  version: z.literal(POOL_VERSION),
  exportedAt: z.string().optional(),
  workers: z.array(FileWorkerSchema),
});
export type PoolEnvelope = z.infer<typeof PoolEnvelopeSchema>;

function withoutSecrets(worker: Worker): Worker {
  const headers = worker.headers
    ? Object.fromEntries(Object.entries(worker.headers).filter(([k]) => !SECRET_HEADER.test(k)))
    : undefined;
  // Rebuilt field by field through the schema, so nothing outside it (a key set on the object by
  // mistake) can be written.
  return WorkerSchema.parse({ ...worker, headers });
}

/**
 * The pool as a versioned JSON document without keys: credential-bearing headers are dropped and
 * only schema fields are written. Stable key order, two-space indent.
 */
export function exportPool(pool: readonly Worker[], exportedAt = new Date().toISOString()): string {
  const envelope: PoolEnvelope = {
    format: POOL_FORMAT,
    version: POOL_VERSION,
    exportedAt,
    workers: pool.map(withoutSecrets),
  };
  return `${JSON.stringify(envelope, null, 2)}\n`;
}

/**
 * Reads a pool file. Checks the format, then the version (a newer one is refused), then validates.
 * Worker ids must be unique. Returns a result value and never throws on user data.
 */
export function importPool(text: string): Result<{ workers: Worker[] }> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e: unknown) {
    return { ok: false, ...failure("bad_json", e instanceof Error ? e.message : undefined) };
  }
  if (!isObject(doc) || doc.format !== POOL_FORMAT)
    return { ok: false, ...failure("bad_format", `Expected "format": "${POOL_FORMAT}".`) };
  const version = doc.version;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1)
    return { ok: false, ...failure("invalid_file", "the version is not a positive integer.") };
  if (version > POOL_VERSION)
    return {
      ok: false,
      ...failure("newer_version", `It is pool version ${version}; this app reads ${POOL_VERSION}.`),
    };
  const parsed = PoolEnvelopeSchema.safeParse(doc);
  if (!parsed.success)
    return { ok: false, ...failure("invalid_file", describeIssues(parsed.error)) };
  const ids = new Set<string>();
  for (const w of parsed.data.workers) {
    if (ids.has(w.id))
      return { ok: false, ...failure("invalid_file", `two workers share the id "${w.id}".`) };
    ids.add(w.id);
  }
  return { ok: true, workers: parsed.data.workers.map(withoutSecrets) };
}
