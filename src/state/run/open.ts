// Opens a stored run on screen: its results, its document and, when asked, its pool.
import { docFromSteps, withLayout } from "../../engine/graph/document.ts";
import { Capture } from "../../engine/graph/history.ts";
import { stepsAt } from "../../engine/run/continue.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import type { StepResult } from "../slices/run.ts";
import { TOP, resultFromRecord } from "../slices/run.ts";
import { describeKeyReport, keyReport } from "../slices/pool.ts";
import { runStore } from "../storage/runStore.ts";
import { useStudio } from "../slices/store.ts";
import { runViewOf } from "../slices/undoMemory.ts";

/** The results of a run's first round, keyed by the ids of a document of the same steps. */
export function resultsFor(record: RunRecord, ids: string[]): Record<string, StepResult> {
  const results: Record<string, StepResult> = {};
  record.rounds[0]?.steps.forEach((st, i) => {
    const id = ids[i];
    if (id && st.status !== "idle") results[id] = resultFromRecord(st);
  });
  return results;
}

/**
 * Shows a run: its question, its first round's workflow as the editable document (later rounds
 * and nested workflows are drawn from the record around it) and each step's result. A run in
 * flight is not touched: it goes on into its own record.
 */
export function showRun(
  record: RunRecord,
  where: { key: string; exportedAt: string | null },
  doc = withLayout(docFromSteps(stepsAt(record, TOP)), record.layout),
): void {
  const s = useStudio.getState();
  const ids = doc.steps.map((st) => st.id);
  const shown = runViewOf(s);
  s.setQuestion(record.question);
  s.setFocus(TOP);
  s.setRunStepIds(ids);
  s.setRecord(record, resultsFor(record, ids));
  s.replaceDoc(doc, Capture.Undoable, shown);
  s.setOpen({ openKey: where.key, exportedAt: where.exportedAt });
  s.setNotice(null);
}

/** The `exportedAt` of a stored export text. */
export function writtenAt(text: string): string | null {
  return /^ {2}"exportedAt": "([^"]+)",$/m.exec(text)?.[1] ?? null;
}

/** The open in flight, if any: History's background read of every row waits for it. */
let opening: Promise<unknown> | null = null;

/**
 * Resolves once no run is being opened and the opened run's frame has been drawn (or 100 ms
 * passed, as in a hidden tab, which draws no frames): what the user clicked goes before any
 * background work.
 */
export async function openSettled(): Promise<void> {
  while (opening) {
    // An open that failed has still finished: the read goes on.
    await opening.catch(() => undefined);
    await new Promise<void>((done) => {
      if (typeof requestAnimationFrame !== "function") return void setTimeout(done, 0);
      const timer = setTimeout(done, 100);
      requestAnimationFrame(() => {
        clearTimeout(timer);
        setTimeout(done, 0);
      });
    });
  }
}

/** Opens a stored run from history; the message to show when it cannot be read. */
export function openRun(key: string): Promise<string | null> {
  const run = readAndShow(key);
  opening = run;
  void run.finally(() => {
    if (opening === run) opening = null;
  });
  return run;
}

async function readAndShow(key: string): Promise<string | null> {
  const store = runStore();
  if (!store) return "This browser has no storage for runs.";
  const got = await store.getRun(key);
  if (!got) return "That run is no longer stored.";
  if (!got.ok) return got.message;
  showRun(got.record, { key, exportedAt: writtenAt(got.text) });
  return null;
}

/**
 * Whether the run on screen used another pool than the Settings one (by worker ids, models and
 * endpoints: a shared run that reuses a worker's id at another origin differs).
 */
export function poolDiffers(
  record: RunRecord,
  pool: readonly { id: string; model: string; baseURL: string }[],
) {
  if (!record.pool.length) return false;
  const sig = (p: readonly { id: string; model: string; baseURL: string }[]) =>
    p.map((w) => `${w.id}:${w.model}:${w.baseURL}`).join("|");
  return sig(record.pool) !== sig(pool);
}

/**
 * Makes the run's pool the Settings pool (after the user confirmed); keys of others stay, and a
 * key whose worker the run points at another origin is held back (keybinding.ts): the notice says so.
 */
export function adoptRunPool(): void {
  const s = useStudio.getState();
  const pool = s.record.pool.map((w) => ({ ...w }));
  const keys = keyReport(pool);
  s.setPool(pool, "use the run's pool");
  if (keys.kept || keys.heldBack.length) s.setNotice(describeKeyReport(keys));
}
