// The studio's run controller: plan, run, resume and cancel through the engine's one runner.
import { fallbackOf } from "../slices/settings.ts";
import { findWorker, shownIds, stepsByWorkerId } from "../../engine/conductor/shown-ids.ts";
import { createPartialPlanReader } from "../../engine/conductor/parse.ts";
import type { WorkflowDoc } from "../../engine/graph/document.ts";
import { docFromSteps, emptyDoc } from "../../engine/graph/document.ts";
import { Capture } from "../../engine/graph/history.ts";
import type { RunnerOptions } from "../../engine/exec/runner.ts";
import { newRunId, runRun } from "../../engine/exec/runner.ts";
import { stepsAt } from "../../engine/run/continue.ts";
import {
  continuedRun,
  planResume,
  planRun,
  refines,
  resumeNeeds,
  runActionOf,
  stepsThatRun,
} from "../../engine/run/rerun.ts";
import { emptyRecord, recordOf } from "../../engine/run/record.ts";
import type { RunEvent } from "../../engine/schema/events.ts";
import type { RunKind, RunRecord } from "../../engine/schema/record.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import type { Step } from "../../engine/schema/workflow.ts";
import { createBatcher } from "./batch.ts";
import { conductorBackend, conductorConfigOf, workerBackend } from "./backends.ts";
import { refreshHistory } from "./historyController.ts";
import { resultsFor, showRun } from "./open.ts";
import { createRunWriter, endsSomething } from "../storage/persistence.ts";
import { selectFallback, selectFallbackName } from "../slices/selectors.ts";
import { TOP } from "../slices/run.ts";
import type { StudioState } from "../slices/store.ts";
import { CONDUCTOR_KEY_ID } from "../slices/keybinding.ts";
import { askForKeys } from "../slices/keyPrompt.ts";
import { useStudio } from "../slices/store.ts";
import { runViewOf } from "../slices/undoMemory.ts";

/** The run in flight: its own record, whichever run the screen shows. */
interface Live {
  id: string;
  record: RunRecord;
  abort: AbortController;
}
let live: Live | null = null;

/** Whether a plan or a run is in flight (leaving the page asks first). */
export function isBusy(): boolean {
  return live !== null;
}

/**
 * Drains the one runner into the live run's record through a per-frame batcher. The record is
 * the run's own: the screen follows it only while it shows that run (an import or a run opened
 * from history meanwhile leaves it alone), and it is stored as it streams.
 */
async function pump(
  gen: AsyncGenerator<RunEvent, unknown>,
  run: Live,
  onFlush?: () => void,
): Promise<void> {
  const writer = createRunWriter({}, (message) => {
    if (message) useStudio.getState().setNotice(message);
    if (useStudio.getState().historyOpen) void refreshHistory();
  });
  const batcher = createBatcher<RunEvent>((events) => {
    const s = useStudio.getState();
    if (s.record.id === run.id && s.liveId === run.id) {
      s.applyEvents(events);
      run.record = useStudio.getState().record;
      onFlush?.();
    } else {
      run.record = recordOf(events, run.record);
    }
    writer.touch(run.record, events.some(endsSomething));
  });
  try {
    for (;;) {
      const next = await gen.next();
      if (next.done) break;
      batcher.push(next.value);
    }
  } finally {
    batcher.flush();
    await writer.flush();
  }
}

/** Keeps the ids of steps already on the canvas while a plan streams in, so nodes do not remount. */
function docKeepingIds(previous: WorkflowDoc, steps: Step[]): WorkflowDoc {
  let i = 0;
  const doc = docFromSteps(steps);
  return {
    ...doc,
    steps: doc.steps.map((s) => ({ ...s, id: previous.steps[i++]?.id ?? s.id })),
  };
}

/** What every run takes from the settings: pool, Conductor, caps, prompt. */
function runnerBase(s: StudioState, signal: AbortSignal) {
  const conductor = conductorBackend(s);
  const usesSelf = s.pool.some((w) => w.kind === "conductor");
  return {
    question: s.question,
    pool: s.pool,
    backendFor: (w: Worker) => workerBackend(useStudio.getState(), w),
    signal,
    conductor: conductorConfigOf(s),
    conductorBackend: typeof conductor === "string" ? undefined : conductor,
    maxSteps: s.maxSteps,
    maxRounds: s.conductor.rounds,
    maxDepth: s.conductor.maxDepth,
    maxCalls: s.conductor.maxCalls || undefined,
    fallback: fallbackOf(s.conductor),
    selfSelect: usesSelf,
    prompt: { namedWorkers: s.conductor.namedWorkers, template: s.conductor.template },
    conductorProblem: typeof conductor === "string" ? conductor : null,
  };
}

/**
 * Starts a run through the one runner and follows it to its end. `append` continues the open
 * run (a planned run that now runs); otherwise a new run with its own id is opened.
 */
async function start(
  phase: "planning" | "running",
  o: Omit<RunnerOptions, "signal" | "run"> & { kind: RunKind; parentId?: string | null },
  onFlush?: () => void,
): Promise<void> {
  const s = useStudio.getState();
  const abort = new AbortController();
  const id = o.append ? s.record.id : newRunId();
  const run: Live = { id, record: o.append ? s.record : emptyRecord(id), abort };
  live = run;
  s.setNotice(null);
  s.setPhase(phase);
  if (!o.append) s.setRecord(run.record, s.results);
  s.setOpen({ liveId: id, openKey: id, exportedAt: null });
  try {
    await pump(
      runRun({
        ...o,
        signal: abort.signal,
        run: { id, kind: o.kind, parentId: o.parentId ?? null },
      }),
      run,
      onFlush,
    );
  } finally {
    live = null;
    const st = useStudio.getState();
    st.setPhase("idle");
    st.setOpen({ liveId: null });
  }
}

/** Asks the Conductor for a workflow; steps appear on the canvas as their list entries complete. */
export async function planNow(): Promise<void> {
  const s = useStudio.getState();
  if (s.phase !== "idle") return;
  if (!s.question.trim()) return s.setNotice("Type a question for the Conductor first.");
  if (!s.pool.length)
    return s.setNotice("Add at least one worker to the pool (Settings) before planning.");
  const base = runnerBase(s, new AbortController().signal);
  if (base.conductorProblem) return s.setNotice(base.conductorProblem);
  s.setRunStepIds([]);
  s.setFocus(TOP);
  // The plan replaces the run shown: undoing it shows that run again, not the plan's leftovers.
  s.replaceDoc(emptyDoc(), Capture.Undoable, runViewOf(s));
  // The pool as this plan's prompt shows it: streamed model ids are read against it, whatever
  // happens to the pool while the Conductor writes.
  const ids = shownIds(s.pool);
  const options = { workers: ids.length, maxSteps: s.maxSteps, round: 0 };
  const partial = createPartialPlanReader(options);
  const showPartial = () => {
    const st = useStudio.getState();
    if (st.record.rounds[0]?.fallback) return showFallback();
    const raw = st.record.rounds[0]?.plan?.raw ?? "";
    const steps = stepsByWorkerId(partial.read(raw), ids);
    if (steps.length > st.history.present.steps.length)
      st.replaceDoc(docKeepingIds(st.history.present, steps), Capture.Skip);
  };
  const planned = start(
    "planning",
    { ...base, kind: "planned", start: { from: "plan", planOnly: true } },
    showPartial,
  );
  useStudio.getState().setRecord(useStudio.getState().record, {});
  await planned;
  const st = useStudio.getState();
  const record = st.record;
  if (record.status === "planned") {
    st.replaceDoc(docKeepingIds(st.history.present, stepsAt(record, TOP)), Capture.Skip);
  } else if (record.rounds[0]?.fallback) {
    showFallback();
    st.setNotice(fallbackNotice(useStudio.getState()));
  } else {
    // Steps streamed in before the plan failed are not the Conductor's workflow: the raw text and
    // the error stay in the Conductor panel, the canvas is left empty to retry or build by hand.
    st.replaceDoc(emptyDoc(), Capture.Skip);
    const plan = record.rounds[0]?.plan;
    if (record.status === "failed" && plan?.error)
      st.setNotice(`The Conductor's plan could not be used: ${plan.error.message}`);
  }
}

/**
 * The Conductor could not plan and the fallback worker answers: its one step becomes the canvas's
 * workflow (once), and its result streams into that node.
 */
function showFallback(): void {
  const st = useStudio.getState();
  const steps = stepsAt(st.record, TOP);
  if (st.runStepIds.length === steps.length && steps.length > 0) {
    st.setRecord(st.record, { ...st.results, ...resultsFor(st.record, st.runStepIds) });
    return;
  }
  const doc = docFromSteps(steps);
  const ids = doc.steps.map((x) => x.id);
  st.setRunStepIds(ids);
  st.replaceDoc(doc, Capture.Skip);
  st.setRecord(st.record, resultsFor(st.record, ids));
}

/** What the studio says after a plan that fell back: the Conductor failed, who answered instead. */
export function fallbackNotice(s: StudioState): string | null {
  const f = selectFallback(s);
  if (!f) return null;
  return `The Conductor could not plan (${f.reason.message}), so ${selectFallbackName(s)} answered alone instead, as set in Settings → Conductor.`;
}

/** Why the current document cannot run, in plain words; null when it can. */
export function runProblem(s: StudioState): string | null {
  const steps = s.history.present.steps;
  if (!steps.length) return "The workflow has no steps: plan one with the Conductor or add a step.";
  for (const [i, step] of steps.entries()) {
    if (!findWorker(s.pool, step.worker)) {
      if (step.worker === "") return `Step ${i + 1} has no worker: choose one from the pool.`;
      const removed = s.poolUndo.some((e) => findWorker(e.pool, step.worker));
      const theirs = findWorker(s.record.pool, step.worker);
      return theirs && !removed
        ? `Step ${i + 1}'s worker “${theirs.name}” is this run's, not in your pool: use this run's pool, or choose another worker for it.`
        : `Step ${i + 1}'s worker is no longer in the pool: choose another one for it.`;
    }
    if (!step.subtask.trim()) return `Step ${i + 1} has an empty subtask.`;
  }
  return null;
}

/**
 * Runs the workflow on the canvas. With `fromStepId`, re-runs that step and everything that sees
 * it, keeping the finished outputs of the other steps. Every run is a new stored run naming the
 * run it continues, except a freshly planned run, which runs as itself (engine/run/rerun.ts).
 */
export async function runNow(fromStepId?: string, keysChecked = false): Promise<void> {
  const s = useStudio.getState();
  if (s.phase !== "idle") return;
  const problem = runProblem(s);
  if (problem) return s.setNotice(problem);
  const doc = s.history.present;
  if (!keysChecked) {
    const runs = stepsThatRun(doc, fromStepId);
    const conductor = s.conductor.rounds > 0 || s.pool.some((w) => w.kind === "conductor");
    const owners = [...runs.map((st) => st.worker), ...(conductor ? [CONDUCTOR_KEY_ID] : [])];
    const what = runActionOf(s.results, fromStepId);
    if (askForKeys(s, owners, what, () => void runNow(fromStepId, true))) return;
  }
  const base = runnerBase(s, new AbortController().signal);
  const request = {
    doc,
    results: s.results,
    fromStepId,
    focus: s.focus,
    parent: continuedRun(s.record, s.question),
    rounds: s.conductor.rounds,
  };
  const refine = refines(request);
  if ((base.selfSelect || refine) && base.conductorProblem)
    return s.setNotice(
      `${refine ? "Refinement rounds" : "A step given to the Conductor"} need the Conductor. ${base.conductorProblem}`,
    );
  const planned = planRun(request);
  s.setRunStepIds(doc.steps.map((st) => st.id));
  if (!planned.ok) return s.setNotice("That workflow is not in this run's record.");
  return start("running", { ...base, ...planned.plan });
}

/**
 * Resumes an interrupted run as a new run: the finished steps keep their outputs, the steps that
 * were running or waiting run again, and the rounds after it follow as they would have.
 */
export async function resumeNow(keysChecked = false): Promise<void> {
  const s = useStudio.getState();
  const parent = s.record;
  if (s.phase !== "idle" || parent.status !== "interrupted") return;
  if (!keysChecked) {
    const needs = resumeNeeds(
      parent,
      s.pool.some((w) => w.kind === "conductor"),
    );
    const owners = needs.plans ? s.pool.map((w) => w.id) : needs.workers;
    const all = [...owners, ...(needs.conductor ? [CONDUCTOR_KEY_ID] : [])];
    if (askForKeys(s, all, "Resume", () => void resumeNow(true))) return;
  }
  const base = runnerBase({ ...s, question: parent.question }, new AbortController().signal);
  const plan = planResume(parent, !!base.conductorBackend);
  if (plan.plansAgain && base.conductorProblem) return s.setNotice(base.conductorProblem);
  await start(plan.planning ? "planning" : "running", {
    ...base,
    question: parent.question,
    kind: "resumed",
    parentId: parent.id,
    base: parent,
    seed: plan.seed,
    refine: plan.refine,
    maxRounds: parent.maxRounds,
    start: plan.start,
  });
  const st = useStudio.getState();
  if (plan.planning && st.record.status === "planned")
    st.replaceDoc(docKeepingIds(st.history.present, stepsAt(st.record, TOP)), Capture.Skip);
}

/** Stops the plan or run in progress: every model call is aborted and nothing is retried. */
export function cancelNow(): void {
  live?.abort.abort();
}

/**
 * Shows the run in flight again after another run was opened (an import, a History row): its
 * record as it stands, which the screen then follows to its end.
 */
export function showLiveRun(): void {
  if (live) showRun(live.record, { key: live.id, exportedAt: null });
}
