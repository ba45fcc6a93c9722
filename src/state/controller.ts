import { createPartialPlanReader } from "../engine/conductor/parse.ts";
import { buildConductorMessages } from "../engine/conductor/prompt.ts";
import type { WorkflowDoc } from "../engine/graph/document.ts";
import { docFromSteps, emptyDoc, indexOfStep, stepsOf } from "../engine/graph/document.ts";
import { dependants } from "../engine/graph/edges.ts";
import { planRound } from "../engine/exec/plan.ts";
import { newRunId, runConductor, runWorkflow } from "../engine/exec/run.ts";
import { formatLists } from "../engine/conductor/format.ts";
import type { Worker } from "../engine/schema/worker.ts";
import type { RunEvent } from "../engine/schema/events.ts";
import type { Step } from "../engine/schema/workflow.ts";
import { createBatcher } from "./batch.ts";
import { isTop } from "./focus.ts";
import { rerunInPlace } from "./rerun.ts";
import { TOP } from "./run.ts";
import { conductorBackend, conductorConfigOf, workerBackend } from "./backends.ts";
import type { StudioState } from "./store.ts";
import { useStudio } from "./store.ts";

let active: AbortController | null = null;

function runStart(s: StudioState): RunEvent {
  return {
    type: "run_start",
    at: Date.now(),
    runId: newRunId(),
    question: s.question,
    pool: s.pool,
    conductor: conductorConfigOf(s),
    maxSteps: s.maxSteps,
    maxRounds: s.conductor.rounds,
  };
}

/** Drains an event generator into the store through a per-frame batcher; returns its result. */
async function pump<R>(gen: AsyncGenerator<RunEvent, R>, onFlush?: () => void): Promise<R> {
  const batcher = createBatcher<RunEvent>((events) => {
    useStudio.getState().applyEvents(events);
    onFlush?.();
  });
  try {
    for (;;) {
      const next = await gen.next();
      if (next.done) return next.value;
      batcher.push(next.value);
    }
  } finally {
    batcher.flush();
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

/** Asks the Conductor for a workflow; steps appear on the canvas as their list entries complete. */
export async function planNow(): Promise<void> {
  const s = useStudio.getState();
  if (s.phase !== "idle") return;
  if (!s.question.trim()) return s.setNotice("Type a question for the Conductor first.");
  if (!s.pool.length)
    return s.setNotice("Add at least one worker to the pool (Settings) before planning.");
  const backend = conductorBackend(s);
  if (typeof backend === "string") return s.setNotice(backend);
  active = new AbortController();
  s.setNotice(null);
  s.setPhase("planning");
  s.setRunStepIds([]);
  s.setFocus(TOP);
  s.setRecord(useStudio.getState().record, {});
  s.replaceDoc(emptyDoc(), true);
  s.applyEvents([runStart(s)]);
  const options = { workers: s.pool.length, maxSteps: s.maxSteps, round: 0 };
  const partial = createPartialPlanReader(options);
  const showPartial = () => {
    const st = useStudio.getState();
    const raw = st.record.rounds[0]?.plan?.raw ?? "";
    const steps = partial.read(raw);
    if (steps.length > st.history.present.steps.length)
      st.replaceDoc(docKeepingIds(st.history.present, steps), false);
  };
  try {
    const outcome = await pump(
      planRound({
        backend,
        conductor: conductorConfigOf(s),
        messages: buildConductorMessages({
          question: s.question,
          pool: s.pool,
          maxSteps: s.maxSteps,
          namedWorkers: s.conductor.namedWorkers,
          continuesAssistant: backend.continuesAssistant,
          template: s.conductor.template,
        }),
        ...options,
        signal: active.signal,
      }),
      showPartial,
    );
    const st = useStudio.getState();
    if (outcome.ok) st.replaceDoc(docKeepingIds(st.history.present, outcome.steps), false);
    else {
      // Steps streamed in before the plan failed are not the Conductor's workflow: the raw text and
      // the error stay in the Conductor panel, the canvas is left empty to retry or build by hand.
      st.replaceDoc(emptyDoc(), false);
      if (!outcome.cancelled)
        st.setNotice(`The Conductor's plan could not be used: ${outcome.message}`);
    }
  } finally {
    active = null;
    useStudio.getState().setPhase("idle");
  }
}

/** Why the current document cannot run, in plain words; null when it can. */
export function runProblem(s: StudioState): string | null {
  const steps = s.history.present.steps;
  if (!steps.length) return "The workflow has no steps: plan one with the Conductor or add a step.";
  for (const [i, step] of steps.entries()) {
    if (!s.pool[step.worker]) return `Step ${i + 1} has no worker: choose one from the pool.`;
    if (!step.subtask.trim()) return `Step ${i + 1} has an empty subtask.`;
  }
  return null;
}

/**
 * Runs the workflow on the canvas. With `fromStepId`, re-runs that step and everything that sees
 * it, keeping the finished outputs of the other steps.
 */
export async function runNow(fromStepId?: string): Promise<void> {
  const s = useStudio.getState();
  if (s.phase !== "idle") return;
  const problem = runProblem(s);
  if (problem) return s.setNotice(problem);
  const doc = s.history.present;
  const keep = new Map<number, string>();
  if (fromStepId) {
    const from = indexOfStep(doc, fromStepId);
    const rerun = new Set([from, ...dependants(doc, from)]);
    doc.steps.forEach((step, i) => {
      const r = s.results[step.id];
      if (!rerun.has(i) && r?.status === "done") keep.set(i, r.output);
    });
  }
  // Refinement rounds and self-selected steps both need the Conductor.
  const conductor = conductorBackend(s);
  const usesSelf = s.pool.some((w) => w.kind === "conductor");
  const top = isTop(s.focus);
  const refine = top && !fromStepId && s.conductor.rounds > 0;
  if ((usesSelf || refine) && typeof conductor === "string")
    return s.setNotice(
      `${refine ? "Refinement rounds" : "A step given to the Conductor"} need the Conductor. ${conductor}`,
    );
  active = new AbortController();
  s.setNotice(null);
  s.setPhase("running");
  s.setRunStepIds(doc.steps.map((st) => st.id));
  // The record keeps the Conductor's plan when it planned this question; otherwise a new run starts.
  const plan = s.record.question === s.question ? s.record.rounds[0]?.plan : undefined;
  if (top && (!plan || s.record.pool !== s.pool)) s.applyEvents([runStart(s)]);
  const backendFor = (w: Worker) => workerBackend(useStudio.getState(), w);
  const steps = stepsOf(doc);
  const prompt = { namedWorkers: s.conductor.namedWorkers, template: s.conductor.template };
  const maxCalls = s.conductor.maxCalls || undefined;
  const common = {
    question: s.question,
    pool: s.pool,
    backendFor,
    signal: active.signal,
    maxCalls,
  };
  const self =
    typeof conductor !== "string" && usesSelf
      ? {
          conductor: conductorConfigOf(s),
          conductorBackend: conductor,
          maxSteps: s.maxSteps,
          maxDepth: s.conductor.maxDepth,
          prompt,
        }
      : undefined;
  try {
    if (!top) {
      // A later round or a nested workflow, edited in place: re-run it where it sits in the run.
      await pump(rerunInPlace({ ...common, record: s.record, focus: s.focus, steps, keep, self }));
    } else if (typeof conductor !== "string" && refine) {
      await pump(
        runConductor({
          ...common,
          conductor: conductorConfigOf(s),
          conductorBackend: conductor,
          maxSteps: s.maxSteps,
          maxRounds: s.conductor.rounds,
          maxDepth: s.conductor.maxDepth,
          prompt,
          firstRound: { raw: plan?.raw || formatLists(steps), steps },
        }),
      );
    } else {
      await pump(runWorkflow({ ...common, steps, keep, self }));
    }
  } finally {
    active = null;
    useStudio.getState().setPhase("idle");
  }
}

/** Stops the plan or run in progress: every model call is aborted and nothing is retried. */
export function cancelNow(): void {
  active?.abort();
}
