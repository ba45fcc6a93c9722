import { z } from "zod";
import { workerIdAt } from "../conductor/shown-ids.ts";
import { describeIssues, isObject } from "../schema/guards.ts";
import type { Result } from "../errors.ts";
import { redactOwner, withPresetPlainHeaders } from "../pool/headers.ts";
import { failure } from "../errors.ts";
import type { MigrationStep } from "../schema/migrate.ts";
import { migrationSequence, upgrade } from "../schema/migrate.ts";
import type { RunRecord } from "../schema/record.ts";
import { RunRecordSchema } from "../schema/record.ts";

/** The export envelope's format name; a file without it is not ours. */
export const EXPORT_FORMAT = "conductor-studio/run";
/** The ids of an old file's pool by place, a place without one as `model-id-N` (workerIdAt). */
export function poolIds(pool: unknown): string[] {
  if (!Array.isArray(pool)) return [];
  return pool.map((w: unknown, i) =>
    isObject(w) && typeof w.id === "string" ? w.id : workerIdAt([], i),
  );
}

/** v2 added nested workflows (self-selection): every step gains `nested: null`. */
const addNested: MigrationStep = {
  id: 2,
  up: (doc) => {
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
};

/**
 * v3 made runs stored documents: a kind, a parent and what it kept from it, a created time, the
 * prompt settings, and planning and execution time apart. A v2 run stands alone; its planning
 * time is what its top-level plans took; its execution time is unknown (v2 mixed it with
 * editing time).
 */
const storedRuns: MigrationStep = {
  id: 3,
  up: (doc) => {
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
};

/**
 * v4 made steps refer to their worker by id, not by place in the pool: a step's `worker` becomes
 * the id of the pool worker at that place (a place past the pool's end becomes "model-id-N",
 * which validation then names), and each round's lists gain `workerIds`, the mapping their
 * `model_id` numbers meant: in v3 every prompt showed the run's whole pool in order.
 */
const workersById: MigrationStep = {
  id: 4,
  up: (doc) => {
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

/** The run export's migrations; stored runs (the IndexedDB store) are exports too. */
export const RUN_EXPORT_MIGRATIONS = migrationSequence("run export", [
  addNested,
  storedRuns,
  workersById,
]);
/** The version this app writes. Each breaking change adds one step to RUN_EXPORT_MIGRATIONS. */
export const EXPORT_VERSION = RUN_EXPORT_MIGRATIONS.current;

export const ExportEnvelopeSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.string(),
  app: z.object({ name: z.string(), version: z.string() }),
  run: RunRecordSchema,
});
export type ExportEnvelope = z.infer<typeof ExportEnvelopeSchema>;

/**
 * A run record kept as an object rather than an export (an evaluation's stored items): one from
 * before steps referred to workers by id is brought to today's shape; today's passes unchanged.
 */
export function upgradeRunObject(run: unknown): unknown {
  return workersById.up({ run }).run;
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

/**
 * Reads an export: checks the format, reads its version and dispatches to the migrations (a newer
 * version is refused), then validates. Returns a result value and never throws on user data.
 */
export function importRun(
  text: string,
): Result<{ record: RunRecord; migratedFrom: number | null }> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e: unknown) {
    return { ok: false, ...failure("bad_json", e instanceof Error ? e.message : undefined) };
  }
  return importRunDocument(doc);
}

/** importRun on JSON already parsed (validate.ts parses once, bounded, before its own checks). */
export function importRunDocument(
  doc: unknown,
): Result<{ record: RunRecord; migratedFrom: number | null }> {
  if (!isObject(doc) || doc.format !== EXPORT_FORMAT)
    return { ok: false, ...failure("bad_format", `Expected "format": "${EXPORT_FORMAT}".`) };
  const migrated = upgrade(RUN_EXPORT_MIGRATIONS, doc);
  if (!migrated.ok) return migrated;
  const parsed = ExportEnvelopeSchema.safeParse(migrated.doc);
  if (!parsed.success)
    return { ok: false, ...failure("invalid_file", describeIssues(parsed.error)) };
  return {
    ok: true,
    record: parsed.data.run,
    migratedFrom: migrated.migratedFrom,
  };
}
