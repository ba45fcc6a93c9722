import { z } from "zod";
import { workerIdAt } from "../conductor/ids.ts";
import { describeIssues, isObject } from "../schema/guards.ts";
import type { Result } from "../errors.ts";
import { redactOwner, withPresetPlainHeaders } from "../pool/headers.ts";
import { failure } from "../errors.ts";
import type { RunRecord } from "../schema/record.ts";
import { RunRecordSchema } from "../schema/record.ts";

/** The export envelope's format name; a file without it is not ours. */
export const EXPORT_FORMAT = "conductor-studio/run";
/** The version this app writes. Each breaking change adds one migration in MIGRATIONS. */
export const EXPORT_VERSION = 4;

export const ExportEnvelopeSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.string(),
  app: z.object({ name: z.string(), version: z.string() }),
  run: RunRecordSchema,
});
export type ExportEnvelope = z.infer<typeof ExportEnvelopeSchema>;

/** The ids of an old file's pool by place, a place without one as `model-id-N` (workerIdAt). */
export function poolIds(pool: unknown): string[] {
  if (!Array.isArray(pool)) return [];
  return pool.map((w: unknown, i) =>
    isObject(w) && typeof w.id === "string" ? w.id : workerIdAt([], i),
  );
}

/** A pure migration from version `n` to `n + 1`, keyed by `n`. */
export type Migration = (doc: Record<string, unknown>) => Record<string, unknown>;
export const MIGRATIONS: Readonly<Record<number, Migration>> = {
  /** v2 added nested workflows (self-selection): every step gains `nested: null`. */
  1: (doc) => {
    const run = doc.run;
    if (!isObject(run) || !Array.isArray(run.rounds)) return doc;
    const rounds: unknown[] = run.rounds.map((round: unknown) => {
      if (!isObject(round) || !Array.isArray(round.steps)) return round;
      const steps: unknown[] = round.steps.map((step: unknown) =>
        isObject(step) ? { ...step, nested: null } : step,
      );
      return { ...round, steps };
    });
    return { ...doc, run: { ...run, rounds } };
  },
  /**
   * v3 made runs stored documents: a kind, a parent and what it kept from it, a created time, the
   * prompt settings, and planning and execution time apart. A v2 run stands alone; its planning
   * time is what its top-level plans took; its execution time is unknown (v2 mixed it with
   * editing time).
   */
  2: (doc) => {
    const run = doc.run;
    if (!isObject(run) || !Array.isArray(run.rounds)) return doc;
    let planningMs: number | null = null;
    let planned = false;
    for (const round of run.rounds as unknown[]) {
      const plan = isObject(round) ? round.plan : null;
      if (!isObject(plan)) continue;
      planned = true;
      if (typeof plan.startedAt === "number" && typeof plan.finishedAt === "number")
        planningMs = (planningMs ?? 0) + Math.max(0, plan.finishedAt - plan.startedAt);
    }
    const { id, ...rest } = run;
    return {
      ...doc,
      run: {
        id,
        kind: planned ? "planned" : "manual",
        parentId: null,
        kept: [],
        createdAt: typeof run.startedAt === "number" ? run.startedAt : null,
        planningMs,
        executionMs: null,
        prompt: null,
        ...rest,
      },
    };
  },
  /**
   * v4 made steps refer to their worker by id, not by place in the pool: a step's `worker` becomes
   * the id of the pool worker at that place (a place past the pool's end becomes "model-id-N",
   * which validation then names), and each round's lists gain `workerIds`, the mapping their
   * `model_id` numbers meant: in v3 every prompt showed the run's whole pool in order.
   */
  3: (doc) => {
    const run = doc.run;
    if (!isObject(run) || !Array.isArray(run.rounds)) return doc;
    const ids = poolIds(run.pool);
    const idOf = (n: unknown): unknown => (typeof n === "number" ? workerIdAt(ids, n) : n);
    const rounds = (list: unknown[]): unknown[] =>
      list.map((round: unknown) => {
        if (!isObject(round)) return round;
        // A lists object that has its mapping already keeps it: the migration is idempotent.
        const lists =
          isObject(round.lists) && !Array.isArray(round.lists.workerIds)
            ? { ...round.lists, workerIds: ids }
            : round.lists;
        const steps = Array.isArray(round.steps)
          ? round.steps.map((step: unknown) => {
              if (!isObject(step)) return step;
              const nested =
                isObject(step.nested) && Array.isArray(step.nested.rounds)
                  ? { ...step.nested, rounds: rounds(step.nested.rounds) }
                  : step.nested;
              return { ...step, worker: idOf(step.worker), nested };
            })
          : round.steps;
        return { ...round, lists, steps };
      });
    return { ...doc, run: { ...run, rounds: rounds(run.rounds) } };
  },
};

/**
 * A run record kept as an object rather than an export (an evaluation's stored items): one from
 * before steps referred to workers by id is brought to today's shape; today's passes unchanged.
 */
export function upgradeRunObject(run: unknown): unknown {
  const step = MIGRATIONS[3];
  return step ? step({ run }).run : run;
}

/**
 * The record with every secret header value of the pool and the Conductor redacted: names are
 * kept, values not marked plain become `[redacted]` (pool/headers.ts).
 */
function withoutSecrets(record: RunRecord): RunRecord {
  return {
    ...record,
    pool: record.pool.map((w) => redactOwner(withPresetPlainHeaders(w))),
    conductor: record.conductor && redactOwner(record.conductor),
  };
}

/**
 * Serialises a run as the versioned export: stable key order (the schema's), two-space indent.
 * Parsing through the schema also drops any field the format does not know, so nothing stray (a
 * key smuggled onto a worker object, say) can reach the file.
 */
export function exportRun(record: RunRecord, exportedAt = new Date().toISOString()): string {
  const envelope = ExportEnvelopeSchema.parse({
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt,
    app: { name: "Conductor Studio", version: "0.1.0" },
    run: withoutSecrets(record),
  });
  return `${JSON.stringify(envelope, null, 2)}\n`;
}

/** Applies migrations from `from` up to `to`, one version at a time; a gap is an error. */
export function migrate(
  doc: Record<string, unknown>,
  from: number,
  to: number = EXPORT_VERSION,
  table: Readonly<Record<number, Migration>> = MIGRATIONS,
): Result<{ doc: Record<string, unknown> }> {
  let current = doc;
  for (let v = from; v < to; v++) {
    const step = table[v];
    if (!step) return { ok: false, ...failure("invalid_file", `no migration from version ${v}.`) };
    // A migration is written for well-formed files; on anything else it may throw. This returns a
    // result and never throws on user data, so a throw becomes an invalid_file failure.
    try {
      current = { ...step(current), version: v + 1 };
    } catch (e: unknown) {
      const detail = e instanceof Error ? e.message : String(e);
      return {
        ok: false,
        ...failure("invalid_file", `migration from version ${v} failed: ${detail}`),
      };
    }
  }
  return { ok: true, doc: current };
}

/**
 * Reads an export: checks the format, reads its version and dispatches to the migrations (a newer
 * version is refused), then validates. Returns a result value and never throws on user data.
 */
export function importRun(
  text: string,
  table: Readonly<Record<number, Migration>> = MIGRATIONS,
): Result<{ record: RunRecord; migratedFrom: number | null }> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e: unknown) {
    return { ok: false, ...failure("bad_json", e instanceof Error ? e.message : undefined) };
  }
  return importRunDocument(doc, table);
}

/** importRun on JSON already parsed (validate.ts parses once, bounded, before its own checks). */
export function importRunDocument(
  doc: unknown,
  table: Readonly<Record<number, Migration>> = MIGRATIONS,
): Result<{ record: RunRecord; migratedFrom: number | null }> {
  if (!isObject(doc) || doc.format !== EXPORT_FORMAT)
    return { ok: false, ...failure("bad_format", `Expected "format": "${EXPORT_FORMAT}".`) };
  const version = doc.version;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1)
    return { ok: false, ...failure("invalid_file", "the version is not a positive integer.") };
  if (version > EXPORT_VERSION)
    return {
      ok: false,
      ...failure(
        "newer_version",
        `It has version ${version}; this app reads up to ${EXPORT_VERSION}. Update the app.`,
      ),
    };
  const migrated = migrate(doc, version, EXPORT_VERSION, table);
  if (!migrated.ok) return migrated;
  const parsed = ExportEnvelopeSchema.safeParse(migrated.doc);
  if (!parsed.success)
    return { ok: false, ...failure("invalid_file", describeIssues(parsed.error)) };
  return {
    ok: true,
    record: parsed.data.run,
    migratedFrom: version < EXPORT_VERSION ? version : null,
  };
}
