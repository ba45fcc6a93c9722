// How a run started from the studio continues the run on screen: which steps run again, which
// outputs are kept, the run's kind and what it carries over. Pure: the store passes its state in
// and starts the runner with the answer.
import type { RoundFallback, RunStart } from "../exec/runner-options.ts";
import type { WorkflowDoc } from "../graph/document.ts";
import { indexOfStep, stepsOf } from "../graph/document.ts";
import { dependants } from "../graph/edges.ts";
import type { RunKind, RunRecord, StepStatus } from "../schema/record.ts";
import type { Step } from "../schema/workflow.ts";
import type { Seed } from "./continue.ts";
import { resumePoint, seedFrom, stepsAt } from "./continue.ts";
import type { Focus } from "./focus.ts";
import { TOP, isTop, priorOf } from "./focus.ts";

/** What a run needs of a step's latest result on the canvas, keyed by the step's id. */
export interface ShownResult {
  status: StepStatus;
  output: string;
}

export type Results = Readonly<Record<string, ShownResult | undefined>>;

/** The button's word for a run: a re-run of a failed step is a retry. */
export type RunAction = "Run" | "Re-run" | "Retry";

/** Run, Re-run or Retry: what running from `fromStepId` (or the whole workflow) does. */
export function runActionOf(results: Results, fromStepId?: string): RunAction {
  if (!fromStepId) return "Run";
  return results[fromStepId]?.status === "failed" ? "Retry" : "Re-run";
}

/**
 * The indices of the steps that run: step `fromStepId` and every step that sees it, or every
 * step when no step (or a step not in the document) is named.
 */
export function rerunIndices(doc: WorkflowDoc, fromStepId?: string): Set<number> {
  const from = fromStepId ? indexOfStep(doc, fromStepId) : -1;
  if (from < 0) return new Set(doc.steps.map((_, i) => i));
  return new Set([from, ...dependants(doc, from)]);
}

/** The steps that run (see `rerunIndices`), in order. */
export function stepsThatRun(doc: WorkflowDoc, fromStepId?: string): WorkflowDoc["steps"] {
  const runs = rerunIndices(doc, fromStepId);
  return doc.steps.filter((_, i) => runs.has(i));
}

/** The finished outputs a re-run from `fromStepId` keeps: every done step that does not run. */
export function keptOutputs(
  doc: WorkflowDoc,
  results: Results,
  fromStepId?: string,
): Map<number, string> {
  const keep = new Map<number, string>();
  const runs = rerunIndices(doc, fromStepId);
  doc.steps.forEach((step, i) => {
    const r = results[step.id];
    if (!runs.has(i) && r?.status === "done") keep.set(i, r.output);
  });
  return keep;
}

/** The open record when a new run of `question` continues it: a run, not a draft, of that question. */
export function continuedRun(record: RunRecord, question: string): RunRecord | null {
  return record.status !== "draft" && record.rounds.length > 0 && record.question === question
    ? record
    : null;
}

const sameSteps = (a: Step[], b: Step[]) => JSON.stringify(a) === JSON.stringify(b);

/** What the runner is told about who a run is and where it starts. */
export interface RunPlan {
  kind: RunKind;
  parentId: string | null;
  /** The run continues `base` as the same run (a planned run that now runs). */
  append: boolean;
  base?: RunRecord;
  seed?: Seed;
  start: RunStart;
  /** Whether refinement rounds follow the round that runs. */
  refine: boolean;
}

export interface RunRequest {
  /** The workflow on the canvas. */
  doc: WorkflowDoc;
  /** The canvas's latest results per step id. */
  results: Results;
  /** Re-run this step and every step that sees it; the whole workflow when absent. */
  fromStepId?: string;
  /** The workflow the editor holds: the top level or a round or nested workflow of `parent`. */
  focus: Focus;
  /** The run this one continues (see `continuedRun`). */
  parent: RunRecord | null;
  /** The refinement rounds the settings ask for (0: none). */
  rounds: number;
}

export type PlannedRun = { ok: true; plan: RunPlan } | { ok: false; code: "not_in_record" };

/** Whether a run of this request has refinement rounds: a whole top-level workflow, rounds set. */
export function refines(r: Pick<RunRequest, "focus" | "fromStepId" | "rounds">): boolean {
  return isTop(r.focus) && !r.fromStepId && r.rounds > 0;
}

/**
 * How a run of the canvas continues the open run: an edited round or nested workflow of
 * `parent` (kind "edited"); the Conductor's unedited plan running as the planned run itself; or a
 * new top-level run (retry, rerun, edited or manual) that keeps the outputs of the steps it
 * does not run. A workflow that is not the top level needs a parent that holds it.
 */
export function planRun(r: RunRequest): PlannedRun {
  const steps = stepsOf(r.doc);
  const keep = keptOutputs(r.doc, r.results, r.fromStepId);
  const { parent, fromStepId } = r;
  if (!isTop(r.focus)) {
    if (!parent) return { ok: false, code: "not_in_record" };
    const at = r.focus;
    const start: RunStart = at.parent.length
      ? { from: "nested", focus: at, steps, keep }
      : {
          from: "round",
          round: at.round,
          steps,
          keep,
          previousRound: priorOf(parent.rounds[at.round - 1]),
        };
    const seed = seedFrom(parent, at, keep.keys());
    const plan = { kind: "edited", parentId: parent.id, append: false, refine: false } as const;
    return { ok: true, plan: { ...plan, base: parent, seed, start } };
  }
  const refine = refines(r);
  const raw = parent?.rounds[0]?.plan?.raw || undefined;
  const start: RunStart = { from: "round", round: 0, steps, keep, raw };
  const unchanged = parent !== null && sameSteps(stepsAt(parent, TOP), steps);
  if (parent?.status === "planned" && unchanged && !fromStepId)
    // The Conductor's plan, unedited: it runs as the planned run itself.
    return {
      ok: true,
      plan: { kind: parent.kind, parentId: null, append: true, base: parent, start, refine },
    };
  const action = runActionOf(r.results, fromStepId);
  const kind: RunKind =
    action === "Retry"
      ? "retry"
      : action === "Re-run" || unchanged
        ? "rerun"
        : parent
          ? "edited"
          : "manual";
  return {
    ok: true,
    plan: {
      kind,
      parentId: parent?.id ?? null,
      append: false,
      base: parent ?? undefined,
      // Only the first round carries over (seedFrom at the top level): later rounds follow from
      // what runs now.
      seed: parent ? seedFrom(parent, TOP, keep.keys()) : undefined,
      start,
      refine,
    },
  };
}

/** What resuming an interrupted run runs again: the Conductor's plan, or a round's unfinished steps. */
export interface ResumeNeeds {
  /** The plan is made again, so every worker of the pool may be chosen. */
  plans: boolean;
  /** The workers of the steps that did not finish (when the plan is not made again). */
  workers: string[];
  /** Whether the Conductor plans or refines again. */
  conductor: boolean;
}

/** Who resuming `parent` calls; `poolHasConductor`: a worker of the pool is the Conductor. */
export function resumeNeeds(parent: RunRecord, poolHasConductor: boolean): ResumeNeeds {
  const plans = resumePoint(parent).at === "plan";
  return {
    plans,
    workers: parent.rounds.flatMap((r) =>
      r.steps.filter((st) => st.status !== "done").map((st) => st.worker),
    ),
    conductor: plans || parent.maxRounds > 0 || poolHasConductor,
  };
}

/** A resumed run: where it starts, what it keeps, and whether it begins by planning. */
export interface ResumePlan {
  start: RunStart;
  seed?: Seed;
  /** The run begins with the first plan (the studio shows it as planning). */
  planning: boolean;
  /** The Conductor must plan again before anything runs. */
  plansAgain: boolean;
  /** Refinement rounds follow, as the run had them, when a Conductor is there to refine. */
  refine: boolean;
}

/**
 * What the Conductor wrote for the round the resume runs again, as it wrote it (its reasoning
 * included): a refinement round then continues the very conversation an uninterrupted run has.
 */
function rawAt(parent: RunRecord, at: Focus): { raw?: string } {
  const raw = parent.rounds[at.round]?.plan?.raw;
  return raw ? { raw } : {};
}

/** A round a fallback worker answered stays one when resumed: it ends the run, as it did. */
function fallbackAt(parent: RunRecord, at: Focus): { fallback?: RoundFallback } {
  const fallback = parent.rounds[at.round]?.fallback;
  return fallback ? { fallback } : {};
}

/**
 * How an interrupted run resumes as a new run: the finished steps keep their outputs, the steps
 * that were running or waiting run again; a run stopped before its plan plans again.
 * `hasConductor`: a Conductor backend is available.
 */
export function planResume(parent: RunRecord, hasConductor: boolean): ResumePlan {
  const point = resumePoint(parent);
  const at = { parent: [], round: point.round };
  const keep = point.at === "round" ? point.keep : new Map<number, string>();
  const start: RunStart =
    point.at === "plan"
      ? {
          from: "plan",
          round: point.round,
          planOnly: point.round === 0 && parent.kind === "planned",
        }
      : {
          from: "round",
          round: point.round,
          steps: stepsAt(parent, at),
          keep,
          ...rawAt(parent, at),
          ...fallbackAt(parent, at),
        };
  const planning = point.at === "plan" && point.round === 0;
  return {
    start,
    seed: planning ? undefined : seedFrom(parent, at, keep.keys()),
    planning,
    plansAgain: point.at === "plan",
    refine: parent.maxRounds > 0 && hasConductor,
  };
}
