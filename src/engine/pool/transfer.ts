import { z } from "zod";
import { describeIssues, isObject } from "../schema/guards.ts";
import type { Result } from "../errors.ts";
import { failure } from "../errors.ts";
import { migrationSequence, upgrade } from "../schema/migrate.ts";
import type { Worker } from "../schema/worker.ts";
import { WorkerSchema } from "../schema/worker.ts";
import { redactOwner, withPresetPlainHeaders } from "./headers.ts";
import { parseBoundedJson } from "./depth.ts";
import { poolProblem } from "./invariants.ts";

/** The pool file's format name; a file without it is not a pool. */
export const POOL_FORMAT = "conductor-studio/pool";
/** The pool file's migrations: none yet. A breaking change adds a step here. */
const POOL_MIGRATIONS = migrationSequence("pool file", []);
/** The version this app writes and reads. */
export const POOL_VERSION = POOL_MIGRATIONS.current;

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

/**
 * The worker as any file may hold it: every custom header keeps its name, and each value that is
 * not marked plain is `[redacted]` (headers.ts). Rebuilt field by field through the schema, so
 * nothing outside it (a key set on the object by mistake) can be written.
 */
export function withoutSecrets(worker: Worker): Worker {
  return WorkerSchema.parse(redactOwner(withPresetPlainHeaders(worker)));
}

/**
 * The pool as a versioned JSON document without keys: secret header values are redacted and only
 * schema fields are written. Stable key order, two-space indent.
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
 * Reads a pool file. Checks the format, then the version (a newer one is refused), then validates
 * the schema and the pool's invariants (size cap, ids present and unique, http(s) base URLs).
 * Header values of the file are kept only where the file marks them plain: an imported file never
 * supplies a secret. Returns a result value and never throws on user data.
 */
export function importPool(text: string): Result<{ workers: Worker[] }> {
  const read = parseBoundedJson(text);
  if (!read.ok) return read;
  const doc = read.doc;
  if (!isObject(doc) || doc.format !== POOL_FORMAT)
    return { ok: false, ...failure("bad_format", `Expected "format": "${POOL_FORMAT}".`) };
  const migrated = upgrade(POOL_MIGRATIONS, doc);
  if (!migrated.ok) return migrated;
  const parsed = PoolEnvelopeSchema.safeParse(migrated.doc);
  if (!parsed.success)
    return { ok: false, ...failure("invalid_file", describeIssues(parsed.error)) };
  const problem = poolProblem(parsed.data.workers);
  if (problem) return { ok: false, ...failure("invalid_file", problem) };
  return { ok: true, workers: parsed.data.workers.map(withoutSecrets) };
}
