// Run files: export, download, open and store runs and workflows.
import type { Failure } from "../../engine/errors.ts";
import { ErrorCode } from "../../engine/errors.ts";
import { layoutOf, stepsOf } from "../../engine/graph/document.ts";
import { exportRun } from "../../engine/run/export.ts";
import { importRunChecked } from "../../engine/run/validate.ts";
import { isObject } from "../../engine/schema/guards.ts";
import { workflowRecord as workflowRecordOf } from "../../engine/run/workflow-record.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import { conductorConfigOf } from "./backends.ts";
import { showRun } from "./open.ts";
import { runStore } from "../storage/runStore.ts";
import type { StudioState } from "../slices/store.ts";
import { useStudio } from "../slices/store.ts";

/** The current workflow alone (no outputs) as a draft run record: what "Export workflow" writes. */
export function workflowRecord(s: StudioState): RunRecord {
  return workflowRecordOf({
    id: `workflow-${Date.now()}`,
    question: s.question,
    pool: s.pool,
    conductor: conductorConfigOf(s),
    maxSteps: s.maxSteps,
    steps: stepsOf(s.history.present),
    plan: s.record.question === s.question ? (s.record.rounds[0]?.plan ?? null) : null,
  });
}

/**
 * The export text: the run as recorded, or the workflow alone. A stored run exports with the time
 * it was written, so exporting it again (an imported file, say) gives the same bytes.
 */
export function exportText(s: StudioState, what: "run" | "workflow"): string {
  const hasRun = s.record.status !== "draft" && s.record.rounds.some((r) => r.steps.length > 0);
  const run = what === "run" && hasRun;
  // The positions the user dragged the steps to travel with the file (an import puts them back).
  const record = { ...(run ? s.record : workflowRecord(s)), layout: layoutOf(s.history.present) };
  return exportRun(record, run ? (s.exportedAt ?? undefined) : undefined);
}

/** Offers a text as a file download. */
export function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A run stored by an import, ready to show; or why it could not be. */
export type StoredImport =
  | {
      ok: true;
      record: RunRecord;
      key: string;
      exportedAt: string | null;
      notes: readonly string[];
    }
  | ({ ok: false } & Failure);

/**
 * Opens an exported run as a new stored run (kind "imported" in history): its question, its first
 * round's workflow (later rounds drawn beside it) and each step's output and status as recorded.
 * The file is checked in full first (schema, protocol invariants, pool size). A run in flight goes
 * on into its own record; the Settings pool is not touched ("Use this run's pool" does that on
 * request, and keys never follow a worker to another origin: keybinding.ts). A bad file changes
 * nothing and returns the message to show.
 */
export async function openExport(text: string): Promise<string | null> {
  return shown(await storeExport(text));
}

/**
 * Checks an export text in full and stores it as openExport does, without showing it. `kind`
 * "own" keeps the run's own kind in History (a line of History's JSON-lines export).
 */
export async function storeExport(
  text: string,
  kind: "imported" | "own" = "imported",
): Promise<StoredImport> {
  const result = importRunChecked(text);
  if (!result.ok) return { ok: false, code: result.code, message: result.message };
  return storeRecord(result.record, result.notes, exportedAtOf(text), kind === "own" ? null : kind);
}

/**
 * Stores and shows a run record already read and checked (by openExport, or by importRunChecked
 * in a Web Worker for a large file); `notes` are the checker's remarks to show.
 */
export async function openRecord(
  record: RunRecord,
  notes: readonly string[] = [],
  exportedAt: string | null = null,
  kind: "imported" | "evaluation" = "imported",
): Promise<string | null> {
  return shown(await storeRecord(record, notes, exportedAt, kind));
}

async function storeRecord(
  record: RunRecord,
  notes: readonly string[],
  exportedAt: string | null,
  /** The kind History lists it as; null keeps the record's own. */
  kind: "imported" | "evaluation" | null = "imported",
): Promise<StoredImport> {
  const store = runStore();
  let key = record.id;
  if (store) {
    // A copy of a run already stored opens that run; a different run with the same id gets its
    // own key, since stored runs are never overwritten by an import.
    const existing = await store.getRun(key);
    const same = existing?.ok && JSON.stringify(existing.record) === JSON.stringify(record);
    if (existing && !same) key = `${key}~${Date.now().toString(36)}`;
    const at = exportedAt ? Date.parse(exportedAt) : Date.now();
    const saved = same
      ? ({ ok: true } as const)
      : await store.saveRun(
          record,
          { key, ...(kind ? { kind } : {}) },
          Number.isNaN(at) ? Date.now() : at,
        );
    if (!saved.ok) return { ok: false, code: saved.code, message: saved.message };
  }
  return { ok: true, record, key, exportedAt, notes };
}

/** Shows a stored import and the checker's notes; the message to show when it was not stored. */
export function shown(stored: StoredImport): string | null {
  if (!stored.ok) return stored.message;
  showRun(stored.record, { key: stored.key, exportedAt: stored.exportedAt });
  if (stored.notes.length) useStudio.getState().setNotice(stored.notes.slice(0, 2).join(" "));
  return null;
}

/** The `exportedAt` of an export text, if it has one. */
function exportedAtOf(text: string): string | null {
  try {
    const doc: unknown = JSON.parse(text);
    return isObject(doc) && typeof doc.exportedAt === "string" ? doc.exportedAt : null;
  } catch {
    return null;
  }
}

/** Files above this size are refused: no export is that large. */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

/** What a file above MAX_FILE_BYTES is told. */
export const TOO_LARGE = "That file is larger than 50 MB; it is not a Conductor Studio export.";

const unreadable = (e: unknown) =>
  `The file could not be read: ${e instanceof Error ? e.message : String(e)}`;

/** The text of a run file, or the message to show when it is too large or cannot be read. */
export async function readRunFile(
  file: File,
): Promise<{ ok: true; text: string } | ({ ok: false } & Failure)> {
  if (file.size > MAX_FILE_BYTES)
    return { ok: false, code: ErrorCode.unreadable_file, message: TOO_LARGE };
  try {
    return { ok: true, text: await file.text() };
  } catch (e: unknown) {
    return { ok: false, code: ErrorCode.unreadable_file, message: unreadable(e) };
  }
}

/** Reads a File and opens it; the message to show when it fails. */
export async function openFile(file: File): Promise<string | null> {
  const read = await readRunFile(file);
  if (!read.ok) return read.message;
  try {
    return await openExport(read.text);
  } catch (e: unknown) {
    return unreadable(e);
  }
}
