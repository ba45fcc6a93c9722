import { z } from "zod";
import { migrationSequence } from "../schema/migrate.ts";
import { RunKindSchema, RunStatusSchema } from "../schema/record.ts";

/**
 * A stored run row's migrations (its `version`): none yet. The record inside is the run's export
 * text, which migrates as exports do (RUN_EXPORT_MIGRATIONS); a change of the row itself (or of
 * the tables' indexes, which Dexie declares per version in `db.ts`) adds a step here.
 */
export const STORED_RUN_MIGRATIONS = migrationSequence("stored run", []);
/** The IndexedDB schema version, and the version each row is written at. */
export const STORE_VERSION = STORED_RUN_MIGRATIONS.current;

/**
 * An evaluation item's verdict, as History shows it: `errored` when a call failed before any scorer
 * saw it (never "unscored", which is an answer the scorer could not judge).
 */
export const VerdictSchema = z.enum(["correct", "wrong", "unscored", "errored"]);
export type Verdict = z.infer<typeof VerdictSchema>;

/** Which evaluation an item's run belongs to, and what it was there (kept on its history row). */
export const EvalTagSchema = z.object({
  id: z.string(),
  name: z.string(),
  strategy: z.string(),
  item: z.string(),
  repeat: z.number().int().nonnegative(),
  verdict: VerdictSchema,
});
export type EvalTag = z.infer<typeof EvalTagSchema>;

/** What history lists of a stored run, without loading its record. */
export const RunMetaSchema = z.object({
  /** The storage key: the run's id, or a fresh key for an imported copy of a stored id. */
  key: z.string(),
  runId: z.string(),
  /** The user's name for it ("" for none: the question's first line is shown). */
  title: z.string(),
  /** The first line of the question, lower-cased copy kept apart for search. */
  question: z.string(),
  search: z.string(),
  createdAt: z.number(),
  /** When it was stored last (sort order of "recent"). */
  savedAt: z.number(),
  status: RunStatusSchema,
  kind: RunKindSchema,
  parentId: z.string().nullable(),
  steps: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  cost: z.number().nonnegative(),
  /** Calls made, and of them those with no known price (`cost` is then a lower bound); absent before. */
  calls: z.number().int().nonnegative().optional(),
  unpricedCalls: z.number().int().nonnegative().optional(),
  /** Planning plus execution time (editing time excluded). */
  durationMs: z.number().nonnegative().nullable(),
  starred: z.boolean(),
  /** Bytes of the stored record (its JSON length), for the storage line. */
  bytes: z.number().int().nonnegative(),
  /**
   * An evaluation item's evaluation, strategy, item and verdict; History folds items into one
   * row per evaluation. Absent on other runs (and on items stored before store version 2, which
   * `backfillEvalTags` fills in from the evaluation store).
   */
  evaluation: EvalTagSchema.optional(),
});
export type RunMeta = z.infer<typeof RunMetaSchema>;

/** A stored record: the run as the export writes it (its own version inside), in a versioned row. */
export const StoredRecordSchema = z.object({
  key: z.string(),
  version: z.number().int().positive(),
  run: z.unknown(),
});
export type StoredRecord = z.infer<typeof StoredRecordSchema>;

/** A stored value of the key-value table (the draft, the last open run). */
export const StoredValueSchema = z.object({
  key: z.string(),
  version: z.number().int().positive(),
  value: z.unknown(),
});
export type StoredValue = z.infer<typeof StoredValueSchema>;

export const RunQuerySchema = z.object({
  text: z.string().optional(),
  status: RunStatusSchema.optional(),
  starred: z.boolean().optional(),
  parentId: z.string().optional(),
  limit: z.number().int().positive().optional(),
});
export type RunQuery = z.infer<typeof RunQuerySchema>;
