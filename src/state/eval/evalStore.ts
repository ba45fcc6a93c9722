// Where an evaluation lives between reloads: definition, questions, results (IndexedDB, Dexie).
import Dexie from "dexie";
import type { Table } from "dexie";
import { z } from "zod";
import { EvalItemSchema } from "../../engine/eval/dataset/item-schema.ts";
import type { EvalItem } from "../../engine/eval/dataset/item-schema.ts";
import type { EvalResult, Evaluation } from "../../engine/eval/schema.ts";
import {
  EvaluationSchema,
  parseResult,
  resultKey,
  upgradeEvaluation,
} from "../../engine/eval/schema.ts";
import { upgradeRunObject } from "../../engine/run/export.ts";
import { migrationSequence, upgrade } from "../../engine/schema/migrate.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import { RunRecordSchema } from "../../engine/schema/record.ts";

/**
 * Where an evaluation lives between reloads: its definition and questions, each finished item's
 * result and that item's run record. Kept behind this interface so the lead can route item records
 * into the shared run store later.
 */
export interface EvalStore {
  saveEvaluation(evaluation: Evaluation, items: readonly EvalItem[]): Promise<void>;
  /** Evaluations, newest first. */
  listEvaluations(): Promise<Evaluation[]>;
  loadQuestions(evalId: string): Promise<EvalItem[]>;
  saveItem(evalId: string, result: EvalResult, record: RunRecord): Promise<void>;
  listItems(evalId: string): Promise<EvalResult[]>;
  /** Replaces stored results by key (a re-score), their run records untouched. */
  saveResults(evalId: string, results: readonly EvalResult[]): Promise<void>;
  loadRecord(evalId: string, runId: string): Promise<RunRecord | null>;
  /** Keeps (or, with null, forgets) the record of a run a pause cut short, by result key. */
  savePartial(evalId: string, key: string, record: RunRecord | null): Promise<void>;
  /** The runs cut short, by result key, to continue from. */
  listPartials(evalId: string): Promise<Map<string, RunRecord>>;
  deleteEvaluation(evalId: string): Promise<void>;
}

/**
 * Rows carry a schema version in `v`, like every stored document, with one migration sequence per
 * table. Step 2 (steps name their worker by id): an evaluation's workflow strategies and an
 * item's run record are brought to the id form. Version 1 rows were written on both sides of
 * that change, which is why the step is idempotent.
 */
const EVALUATION_ROWS = migrationSequence("stored evaluation", [
  { id: 2, up: (row) => ({ ...row, evaluation: upgradeEvaluation(row.evaluation) }) },
]);
const RECORD_ROWS = migrationSequence("stored evaluation run", [
  { id: 2, up: (row) => ({ ...row, record: upgradeRunObject(row.record) }) },
]);
const RESULT_ROWS = migrationSequence("stored evaluation result", []);

interface EvaluationRow {
  id: string;
  createdAt: number;
  v: number;
  evaluation: unknown;
  questions: unknown;
}
interface ResultRow {
  evalId: string;
  key: string;
  v: number;
  runId: string;
  result: unknown;
}
interface RecordRow {
  evalId: string;
  runId: string;
  v: number;
  record: unknown;
}

interface PartialRow {
  evalId: string;
  key: string;
  v: number;
  record: unknown;
}

class EvalDb extends Dexie {
  evaluations!: Table<EvaluationRow, string>;
  results!: Table<ResultRow, [string, string]>;
  records!: Table<RecordRow, [string, string]>;
  partials!: Table<PartialRow, [string, string]>;
  constructor(name: string) {
    super(name);
    this.version(1).stores({
      evaluations: "id, createdAt",
      results: "[evalId+key], evalId",
      records: "[evalId+runId], evalId",
    });
    // Version 2: runs a pause cut short, continued on resume (nothing else changes).
    this.version(2).stores({ partials: "[evalId+key], evalId" });
  }
}

export const EVAL_DB_NAME = "conductor-studio-eval";

/** The IndexedDB store (Dexie, its own database). Rows that fail validation are skipped, not trusted. */
export function createDexieEvalStore(name = EVAL_DB_NAME): EvalStore {
  const db = new EvalDb(name);
  return {
    async saveEvaluation(evaluation, items) {
      await db.evaluations.put({
        id: evaluation.id,
        createdAt: evaluation.createdAt,
        v: EVALUATION_ROWS.current,
        evaluation,
        questions: items,
      });
    },
    async listEvaluations() {
      const rows = await db.evaluations.orderBy("createdAt").reverse().toArray();
      return rows.flatMap((r) => {
        const row = upgrade(EVALUATION_ROWS, r, "v");
        const parsed = row.ok ? EvaluationSchema.safeParse(row.doc.evaluation) : null;
        return parsed?.success ? [parsed.data] : [];
      });
    },
    async loadQuestions(evalId) {
      const row = await db.evaluations.get(evalId);
      const parsed = z.array(EvalItemSchema).safeParse(row?.questions);
      return parsed.success ? parsed.data : [];
    },
    async saveItem(evalId, result, record) {
      await db.transaction("rw", db.results, db.records, async () => {
        await db.records.put({ evalId, runId: result.runId, v: RECORD_ROWS.current, record });
        await db.results.put({
          evalId,
          key: resultKey(result),
          v: RESULT_ROWS.current,
          runId: result.runId,
          result,
        });
      });
    },
    async saveResults(evalId, results) {
      await db.results.bulkPut(
        results.map((result) => ({
          evalId,
          key: resultKey(result),
          v: RESULT_ROWS.current,
          runId: result.runId,
          result,
        })),
      );
    },
    async listItems(evalId) {
      const rows = await db.results.where("evalId").equals(evalId).toArray();
      return rows
        .flatMap((r) => {
          const row = upgrade(RESULT_ROWS, r, "v");
          const parsed = row.ok ? parseResult(row.doc.result) : null;
          return parsed?.success ? [parsed.data] : [];
        })
        .sort((a, b) => (a.finishedAt ?? 0) - (b.finishedAt ?? 0));
    },
    async loadRecord(evalId, runId) {
      const stored = await db.records.get([evalId, runId]);
      const row = upgrade(RECORD_ROWS, stored, "v");
      const parsed = row.ok ? RunRecordSchema.safeParse(row.doc.record) : null;
      return parsed?.success ? parsed.data : null;
    },
    async savePartial(evalId, key, record) {
      if (record) await db.partials.put({ evalId, key, v: RECORD_ROWS.current, record });
      else await db.partials.delete([evalId, key]);
    },
    async listPartials(evalId) {
      const rows = await db.partials.where("evalId").equals(evalId).toArray();
      const out = new Map<string, RunRecord>();
      for (const r of rows) {
        // A partial is an item's run record, so it reads like one (a newer app's row is skipped).
        const row = upgrade(RECORD_ROWS, r, "v");
        const parsed = row.ok ? RunRecordSchema.safeParse(row.doc.record) : null;
        if (parsed?.success) out.set(r.key, parsed.data);
      }
      return out;
    },
    async deleteEvaluation(evalId) {
      await db.transaction(
        "rw",
        [db.evaluations, db.results, db.records, db.partials],
        async () => {
          await db.evaluations.delete(evalId);
          await db.results.where("evalId").equals(evalId).delete();
          await db.records.where("evalId").equals(evalId).delete();
          await db.partials.where("evalId").equals(evalId).delete();
        },
      );
    },
  };
}

let store: EvalStore | null = null;

/** The evaluation store in use (IndexedDB, or a test's). */
export function evalStore(): EvalStore {
  store ??= createDexieEvalStore();
  return store;
}

/** Replaces the store (tests). */
export function setEvalStore(s: EvalStore): void {
  store = s;
}
