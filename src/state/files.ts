import { docFromSteps, stepsOf } from "../engine/graph/document.ts";
import { exportRun } from "../engine/run/export.ts";
import { importRunChecked } from "../engine/run/validate.ts";
import { emptyRecord, stepRecord } from "../engine/run/record.ts";
import type { RunRecord } from "../engine/schema/record.ts";
import { conductorConfigOf } from "./backends.ts";
import { describeKeyReport, keyReport } from "./pool.ts";
import type { StepResult } from "./run.ts";
import { TOP, resultFromRecord } from "./run.ts";
import type { StudioState } from "./store.ts";
import { useStudio } from "./store.ts";

/** The current workflow alone (no outputs) as a draft run record: what "Export workflow" writes. */
export function workflowRecord(s: StudioState): RunRecord {
  const steps = stepsOf(s.history.present);
  const base = {
    ...emptyRecord(`workflow-${Date.now()}`),
    question: s.question,
    pool: s.pool,
    conductor: conductorConfigOf(s),
    maxSteps: s.maxSteps,
  };
  return {
    ...base,
    rounds: [
      {
        index: 0,
        plan: s.record.question === s.question ? (s.record.rounds[0]?.plan ?? null) : null,
        lists: {
          model_id: steps.map((st) => st.worker),
          subtasks: steps.map((st) => st.subtask),
          access_list: steps.map((st) => st.access),
        },
        steps: steps.map((st, i) => stepRecord(base, st, i)),
        answer: null,
        accepted: false,
      },
    ],
  };
}

/** The export text: the run as recorded, or the workflow alone. */
export function exportText(s: StudioState, what: "run" | "workflow"): string {
  const hasRun = s.record.status !== "draft" && s.record.rounds.some((r) => r.steps.length > 0);
  return exportRun(what === "run" && hasRun ? s.record : workflowRecord(s));
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

/**
 * Opens an exported run: the question, the pool, the first round's workflow (later rounds drawn
 * beside it), and each step's output and status as recorded. The file is checked in full first
 * (schema, protocol invariants, pool size); then everything is applied at once, and if applying
 * fails (storage full, say) the studio is put back as it was. A refused file changes nothing and
 * returns the message to show. Keys are never taken from a file, and a held key whose worker the
 * file points elsewhere is not sent there (keybinding.ts); the notice says which.
 */
export function openExport(text: string): string | null {
  const result = importRunChecked(text);
  if (!result.ok) return result.message;
  return openRecord(result.record, result.notes);
}

/** Opens a run record already read and validated (e.g. by `importRun` in a Web Worker). */
/**
 * Opens a checked run record (see openExport); `notes` are the checker's remarks to show. Returns
 * null, or the message to show when applying failed and nothing was changed.
 */
export function openRecord(record: RunRecord, notes: readonly string[] = []): string | null {
  // The first round is the editable workflow, as during a live run; later rounds and nested
  // workflows are drawn from the record around it.
  const round = record.rounds[0];
  const steps = round?.steps ?? [];
  const doc = docFromSteps(
    steps.map((st) => ({ worker: st.worker, subtask: st.subtask, access: st.access })),
  );
  const results: Record<string, StepResult> = {};
  steps.forEach((st, i) => {
    const id = doc.steps[i]?.id;
    if (id && st.status !== "idle") results[id] = resultFromRecord(st);
  });
  const keys = keyReport(record.pool);
  const shown = [
    ...(keys.kept || keys.heldBack.length ? [describeKeyReport(keys)] : []),
    ...notes.slice(0, 2),
  ];
  const before = useStudio.getState();
  try {
    const s = useStudio.getState();
    s.setPool(record.pool);
    s.setQuestion(record.question);
    s.setFocus(TOP);
    s.setRunStepIds(doc.steps.map((st) => st.id));
    s.setRecord(record, results);
    s.replaceDoc(doc, true);
    s.setNotice(shown.length ? shown.join(" ") : null);
  } catch (e: unknown) {
    // All or nothing: whatever was applied is undone.
    useStudio.setState(before, true);
    return `The run could not be opened, and nothing was changed: ${e instanceof Error ? e.message : String(e)}`;
  }
  return null;
}

/** Reads a File and opens it; the message to show when it fails. */
export async function openFile(file: File): Promise<string | null> {
  if (file.size > 50 * 1024 * 1024)
    return "That file is larger than 50 MB; it is not a Conductor Studio export.";
  try {
    return openExport(await file.text());
  } catch (e: unknown) {
    return `The file could not be read: ${e instanceof Error ? e.message : String(e)}`;
  }
}
