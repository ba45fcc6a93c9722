import type { Failure } from "../../engine/errors.ts";
import { ErrorCode } from "../../engine/errors.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import { POOL_FORMAT } from "../../engine/pool/transfer.ts";
import {
  MAX_FILE_BYTES,
  TOO_LARGE,
  openExport,
  openRecord,
  readRunFile,
} from "../../state/run/files.ts";
import { refreshHistory } from "../../state/run/historyController.ts";
import { importFiles, isJsonLines, openedNote } from "../../state/run/imports.ts";
import type { FileOffer } from "../../state/slices/fileOffer.ts";
import { useStudio } from "../../state/slices/store.ts";
import { importRun } from "../../engine/run/export.ts";

/** Files above this size are read in a Web Worker, so the page stays responsive. */
export const WORKER_PARSE_BYTES = 1024 * 1024;
/** Files above this size are opened only after the user agrees. */
export const ASK_BEFORE_BYTES = 10 * 1024 * 1024;

const setOffer = (offer: FileOffer | null) => useStudio.getState().setFileOffer(offer);

/** Whether a text is the app's own pool file (its envelope names the pool format). */
export function poolFileWorkers(text: string): number | null {
  try {
    const doc: unknown = JSON.parse(text);
    if (typeof doc !== "object" || doc === null || !("format" in doc)) return null;
    if (doc.format !== POOL_FORMAT) return null;
    return "workers" in doc && Array.isArray(doc.workers) ? doc.workers.length : 0;
  } catch {
    return null;
  }
}

type Parsed = { ok: true; record: RunRecord; notes: string[] } | ({ ok: false } & Failure);

/** importRun in a Web Worker; the worker ends after one file. */
function parseInWorker(text: string): Promise<Parsed> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL("./import.worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (e: MessageEvent<Parsed>) => {
      worker.terminate();
      resolve(e.data);
    };
    worker.onerror = (e) => {
      worker.terminate();
      resolve({
        ok: false,
        code: ErrorCode.unreadable_file,
        message: `The file could not be read: ${e.message}`,
      });
    };
    worker.postMessage(text);
  });
}

function fail(file: File, message: string) {
  useStudio.getState().setNotice(`Could not open ${file.name}: ${message}`);
}

/**
 * Whether opening a file would replace a draft the user made and never ran (a typed question or
 * a graph): no stored run holds it, so the user is asked first.
 */
function draftAtStake(): { steps: number } | null {
  const s = useStudio.getState();
  const steps = s.history.present.steps.length;
  if (s.record.status !== "draft" || s.phase !== "idle") return null;
  return s.question.trim() || steps ? { steps } : null;
}

/** Reads and opens a run file that the user has agreed to (or that needs no agreement). */
async function openNow(file: File, replaceDraft = false): Promise<void> {
  const read = await readRunFile(file);
  if (!read.ok) return fail(file, read.message);
  const text = read.text;
  // A pool file dropped on the canvas is offered as a pool import rather than refused.
  if (text.length < WORKER_PARSE_BYTES) {
    const workers = poolFileWorkers(text);
    if (workers !== null) return setOffer({ kind: "pool", file, text, workers });
    const draft = replaceDraft ? null : draftAtStake();
    if (draft) {
      // A bad file says so and changes nothing; only a run that would open asks first.
      const check = importRun(text);
      if (!check.ok) return fail(file, check.message);
      return setOffer({ kind: "draft", file, steps: draft.steps });
    }
    const before = useStudio.getState().notice;
    const message = await openExport(text);
    if (message) fail(file, message);
    else confirm(file, before);
    return void refreshHistory();
  }
  const parsed = await parseInWorker(text);
  const draft = replaceDraft ? null : draftAtStake();
  if (parsed.ok && draft) return setOffer({ kind: "draft", file, steps: draft.steps });
  const before = useStudio.getState().notice;
  const message = parsed.ok ? await openRecord(parsed.record, parsed.notes) : parsed.message;
  if (message) fail(file, message);
  else {
    confirm(file, before);
    await refreshHistory();
  }
}

/** Every import says what it opened, then what the checker noted (already the notice), if any. */
function confirm(file: File, before: string | null) {
  const s = useStudio.getState();
  const notes = s.notice && s.notice !== before ? ` ${s.notice}` : "";
  s.setNotice(`${openedNote(file.name)}${notes}`);
}

/**
 * Opens a file chosen or dropped by the user: a run export (large ones read off the main thread,
 * very large ones only after asking), or the app's own pool file, offered as a pool import.
 */
export function openUserFile(file: File): void {
  if (file.size > MAX_FILE_BYTES) return fail(file, TOO_LARGE);
  // History's JSON-lines export: one run a line, each imported as its own stored run.
  if (isJsonLines(file)) return void importFiles([file]);
  if (file.size > ASK_BEFORE_BYTES) return setOffer({ kind: "large", file });
  void openNow(file);
}

/** The user's answer to the pending offer. */
export function answerOffer(yes: boolean): void {
  const offer = useStudio.getState().fileOffer;
  setOffer(null);
  if (!offer || !yes) return;
  if (offer.kind === "large") void openNow(offer.file);
  if (offer.kind === "draft") void openNow(offer.file, true);
}
