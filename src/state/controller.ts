import { fallbackOf } from "./settings.ts";
import { findWorker, shownIds, stepsByWorkerId } from "../engine/conductor/ids.ts";
import { createPartialPlanReader } from "../engine/conductor/parse.ts";
import type { WorkflowDoc } from "../engine/graph/document.ts";
import { docFromSteps, emptyDoc, indexOfStep, stepsOf } from "../engine/graph/document.ts";
import { dependants } from "../engine/graph/edges.ts";
import type { RunnerOptions, RunStart } from "../engine/exec/runner.ts";
import { newRunId, runRun } from "../engine/exec/runner.ts";
import type { Seed } from "../engine/run/continue.ts";
import { resumePoint, seedFrom, stepsAt } from "../engine/run/continue.ts";
import { isTop, priorOf } from "../engine/run/focus.ts";
import { emptyRecord, recordOf } from "../engine/run/record.ts";
import type { RunEvent } from "../engine/schema/events.ts";
import type { RunKind, RunRecord } from "../engine/schema/record.ts";
import type { Worker } from "../engine/schema/worker.ts";
import type { Step } from "../engine/schema/workflow.ts";
import { createBatcher } from "./batch.ts";
import { conductorBackend, conductorConfigOf, workerBackend } from "./backends.ts";
import { refreshHistory, useHistory } from "./history.ts";
import { showRun } from "./open.ts";
import { createRunWriter, endsSomething } from "./persistence.ts";
import { TOP } from "./run.ts";
import type { StudioState } from "./store.ts";
import { CONDUCTOR_KEY_ID } from "./keybinding.ts";
import { askForKeys } from "./keyPrompt.ts";
import { useStudio } from "./store.ts";

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
    if (useHistory.getState().open) void refreshHistory();
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
  s.replaceDoc(emptyDoc(), true);
  // The pool as this plan's prompt shows it: streamed model ids are read against it, whatever
  // happens to the pool while the Conductor writes.
  const ids = shownIds(s.pool);
  const options = { workers: ids.length, maxSteps: s.maxSteps, round: 0 };
  const partial = createPartialPlanReader(options);
  const showPartial = () => {
    const st = useStudio.getState();
    const raw = st.record.rounds[0]?.plan?.raw ?? "";
    const steps = stepsByWorkerId(partial.read(raw), ids);
    if (steps.length > st.history.present.steps.length)
      st.replaceDoc(docKeepingIds(st.history.present, steps), false);
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
    st.replaceDoc(docKeepingIds(st.history.present, stepsAt(record, TOP)), false);
  } else {
    // Steps streamed in before the plan failed are not the Conductor's workflow: the raw text and
    // the error stay in the Conductor panel, the canvas is left empty to retry or build by hand.
    st.replaceDoc(emptyDoc(), false);
    const plan = record.rounds[0]?.plan;
    if (record.status === "failed" && plan?.error)
      st.setNotice(`The Conductor's plan could not be used: ${plan.error.message}`);
  }
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

const sameSteps = (a: Step[], b: Step[]) => JSON.stringify(a) === JSON.stringify(b);

/** Whether the open record is a run of this question that the new run continues. */
function continues(s: StudioState): RunRecord | null {
  const r = s.record;
  return r.status !== "draft" && r.rounds.length > 0 && r.question === s.question ? r : null;
}

/**
 * Runs the workflow on the canvas. With `fromStepId`, re-runs that step and everything that sees
 * it, keeping the finished outputs of the other steps. Every run is a new stored run naming the
 * run it continues, except a freshly planned run, which runs as itself.
 */
export async function runNow(fromStepId?: string, keysChecked = false): Promise<void> {
  const s = useStudio.getState();
  if (s.phase !== "idle") return;
  const problem = runProblem(s);
  if (problem) return s.setNotice(problem);
  if (!keysChecked) {
    const doc = s.history.present;
    const from = fromStepId ? indexOfStep(doc, fromStepId) : -1;
    const runs =
      from < 0
        ? doc.steps
        : doc.steps.filter((_, i) => i === from || dependants(doc, from).includes(i));
    const conductor = s.conductor.rounds > 0 || s.pool.some((w) => w.kind === "conductor");
    const owners = [...runs.map((st) => st.worker), ...(conductor ? [CONDUCTOR_KEY_ID] : [])];
    const what = fromStepId
      ? s.results[fromStepId]?.status === "failed"
        ? "Retry"
        : "Re-run"
      : "Run";
    if (askForKeys(s, owners, what, () => void runNow(fromStepId, true))) return;
  }
  const doc = s.history.present;
  const steps = stepsOf(doc);
  const keep = new Map<number, string>();
  let retry = false;
  if (fromStepId) {
    const from = indexOfStep(doc, fromStepId);
    retry = s.results[fromStepId]?.status === "failed";
    const rerun = new Set([from, ...dependants(doc, from)]);
    doc.steps.forEach((step, i) => {
      const r = s.results[step.id];
      if (!rerun.has(i) && r?.status === "done") keep.set(i, r.output);
    });
  }
  const base = runnerBase(s, new AbortController().signal);
  const top = isTop(s.focus);
  const refine = top && !fromStepId && s.conductor.rounds > 0;
  if ((base.selfSelect || refine) && base.conductorProblem)
    return s.setNotice(
      `${refine ? "Refinement rounds" : "A step given to the Conductor"} need the Conductor. ${base.conductorProblem}`,
    );
  const parent = continues(s);
  s.setRunStepIds(doc.steps.map((st) => st.id));
  const common = { ...base, refine };
  if (!top) {
    if (!parent) return s.setNotice("That workflow is not in this run's record.");
    const at = s.focus;
    const startAt: RunStart = at.parent.length
      ? { from: "nested", focus: at, steps, keep }
      : {
          from: "round",
          round: at.round,
          steps,
          keep,
          previousRound: priorOf(parent.rounds[at.round - 1]),
        };
    return start("running", {
      ...common,
      refine: false,
      kind: "edited",
      parentId: parent.id,
      base: parent,
      seed: seedFrom(parent, at, keep.keys()),
      start: startAt,
    });
  }
  const plan = parent?.rounds[0]?.plan ?? undefined;
  const raw = plan?.raw || undefined;
  const roundStart: RunStart = { from: "round", round: 0, steps, keep, raw };
  if (parent?.status === "planned" && sameSteps(stepsAt(parent, TOP), steps) && !fromStepId)
    // The Conductor's plan, unedited: it runs as the planned run itself.
    return start("running", {
      ...common,
      kind: parent.kind,
      append: true,
      base: parent,
      start: roundStart,
    });
  const unchanged = parent !== null && sameSteps(stepsAt(parent, TOP), steps);
  const kind: RunKind = fromStepId
    ? retry
      ? "retry"
      : "rerun"
    : unchanged
      ? "rerun"
      : parent
        ? "edited"
        : "manual";
  const seed: Seed | undefined = parent ? seedFrom(parent, TOP, keep.keys()) : undefined;
  return start("running", {
    ...common,
    kind,
    parentId: parent?.id ?? null,
    base: parent ?? undefined,
    seed: seed && { rounds: seed.rounds.slice(0, 1), kept: seed.kept },
    start: roundStart,
  });
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
    // The steps that did not finish, and the Conductor when it plans or refines again.
    const unfinished = parent.rounds.flatMap((r) =>
      r.steps.filter((st) => st.status !== "done").map((st) => st.worker),
    );
    const point = resumePoint(parent);
    const conductor =
      point.at === "plan" || parent.maxRounds > 0 || s.pool.some((w) => w.kind === "conductor");
    const owners = point.at === "plan" ? s.pool.map((w) => w.id) : unfinished;
    const all = [...owners, ...(conductor ? [CONDUCTOR_KEY_ID] : [])];
    if (askForKeys(s, all, "Resume", () => void resumeNow(true))) return;
  }
  const base = runnerBase({ ...s, question: parent.question }, new AbortController().signal);
  const point = resumePoint(parent);
  if (point.at === "plan" && base.conductorProblem) return s.setNotice(base.conductorProblem);
  const at = { parent: [], round: point.round };
  const keep = point.at === "round" ? point.keep : new Map<number, string>();
  const startAt: RunStart =
    point.at === "plan"
      ? {
          from: "plan",
          round: point.round,
          planOnly: point.round === 0 && parent.kind === "planned",
        }
      : { from: "round", round: point.round, steps: stepsAt(parent, at), keep };
  const seed = seedFrom(parent, at, keep.keys());
  const planning = point.at === "plan" && point.round === 0;
  await start(planning ? "planning" : "running", {
    ...base,
    question: parent.question,
    kind: "resumed",
    parentId: parent.id,
    base: parent,
    seed: planning ? undefined : seed,
    refine: parent.maxRounds > 0 && !!base.conductorBackend,
    maxRounds: parent.maxRounds,
    start: startAt,
  });
  const st = useStudio.getState();
  if (planning && st.record.status === "planned")
    st.replaceDoc(docKeepingIds(st.history.present, stepsAt(st.record, TOP)), false);
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
