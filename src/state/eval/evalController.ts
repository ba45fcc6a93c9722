// The studio's evaluation controller: load questions, start, pause, resume, open evaluations.
import { fallbackOf } from "../slices/settings.ts";
import { datasetHash } from "../../engine/eval/dataset/hash.ts";
import { detectFormat, mapRows, parseTable } from "../../engine/eval/dataset/parse.ts";
import type { EvalItem } from "../../engine/eval/dataset/item-schema.ts";
import { guessColumns } from "../../engine/eval/columns.ts";
import type { SampleSet } from "../../engine/eval/dataset/samples.ts";
import type { CapBlock } from "../../engine/eval/runner.ts";
import type { EvalRun } from "../../engine/eval/runner.ts";
import { formatCost } from "../../engine/cost.ts";
import type { Evaluation } from "../../engine/eval/schema.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import {
  evaluationDefinition,
  sessionRun,
  sessionScoring,
  withScorerVersion,
} from "../../engine/eval/session.ts";
import { scorerKind } from "../../engine/eval/scorers/kinds.ts";
import { defaultScorerId } from "../../engine/eval/scorers/registry.ts";
import type { Strategy } from "../../engine/eval/strategy.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { parseStrategyList, strategyName } from "../../engine/eval/strategy.ts";
import { conductorSample } from "../../engine/eval/training/sample.ts";
import { stepsOf } from "../../engine/graph/document.ts";
import { conductorBackend, conductorConfigOf, workerBackend } from "../run/backends.ts";
import { judgeOptions, studioScoringDeps } from "./evalScoring.ts";
import type { EvalStore } from "./evalStore.ts";
import { evalStore } from "./evalStore.ts";
import { openRecord } from "../run/files.ts";
import { evalTagOf } from "./evalHistory.ts";
import { refreshHistory } from "../run/historyController.ts";
import { CONDUCTOR_KEY_ID } from "../slices/keybinding.ts";
import { askForKeys } from "../slices/keyPrompt.ts";
import { parseMoney, userLocale } from "../run/money.ts";
import { runStore } from "../storage/runStore.ts";
import { useStudio } from "../slices/store.ts";
import {
  cachedConductor,
  cachedWorker,
  cacheWriteMessage,
  evaluationCache,
} from "./studioCache.ts";
import { newId } from "../../engine/ids.ts";

let current: EvalRun | null = null;

/** Loads a question file's text into the setup form: rows, a guessed mapping, bad rows. */
export function loadQuestionText(text: string, name: string): void {
  const table = parseTable(text, detectFormat(text, name));
  useStudio.getState().patchEvalSetup({
    sourceName: name,
    table,
    mapping: guessColumns(table.columns),
    skipBad: false,
    hfSource: null,
    instruction: null,
    benchmark: null,
  });
}

/** Loads a sample set as if it were a JSONL file, with the scorer that suits it. */
export function loadSample(set: SampleSet): void {
  const text = set.items
    .map((i) =>
      JSON.stringify({
        id: i.id,
        question: i.question,
        answer: i.expected,
        choices: i.choices,
        tests: i.tests,
      }),
    )
    .join("\n");
  loadQuestionText(text, `${set.name}.jsonl`);
  useStudio.getState().patchEvalSetup({ scorer: set.scorer });
}

/** The items under the current mapping, and the bad rows (with lines) the user must see first. */
export function mappedItems() {
  const { table, mapping } = useStudio.getState().evalSetup;
  if (!table) return { items: [] as EvalItem[], bad: [] };
  const mapped = mapRows(table.rows, mapping);
  return {
    items: mapped.items,
    bad: [...table.bad, ...mapped.bad].sort((a, b) => a.line - b.line),
  };
}

function strategiesOf(names: string[]): Strategy[] | string {
  const s = useStudio.getState();
  const out: Strategy[] = [];
  for (const name of names) {
    if (name === "conductor") {
      // The studio's Conductor settings: its refinement rounds and step cap.
      out.push({ kind: "conductor", rounds: s.conductor.rounds, maxSteps: s.maxSteps });
      continue;
    }
    if (name === "workflow") {
      const steps = stepsOf(s.history.present);
      if (steps.length === 0) return "The studio has no workflow to use as a template.";
      out.push({ kind: "workflow", steps });
      continue;
    }
    const parsed = parseStrategyList(name, s.pool);
    if (!parsed.ok) return parsed.message;
    out.push(...parsed.strategies);
  }
  return out;
}

/** Starts a new evaluation from the setup form. */
export async function startEvaluation(): Promise<void> {
  const s = useStudio.getState();
  const { items, bad } = mappedItems();
  if (bad.length && !s.evalSetup.skipBad)
    return s.patchEval({
      evalMessage: `${bad.length} bad row(s): fix them or tick "skip bad rows".`,
    });
  if (items.length === 0) return s.patchEval({ evalMessage: "No questions to run." });
  const strategies = strategiesOf(s.evalSetup.strategies);
  if (typeof strategies === "string") return s.patchEval({ evalMessage: strategies });
  if (strategies.length === 0) return s.patchEval({ evalMessage: "Choose at least one strategy." });
  const scorerId = s.evalSetup.scorer || defaultScorerId(items);
  const kind = scorerKind(scorerId);
  // A cap that cannot be read fails closed: nothing starts (the form says why).
  const cap = parseMoney(s.evalSetup.maxCost, userLocale());
  if (!cap.ok) return s.patchEval({ evalMessage: `Fix the spending cap: ${cap.message}` });
  const evaluation = evaluationDefinition({
    id: newId("eval"),
    name: s.evalSetup.sourceName || "questions",
    createdAt: Date.now(),
    dataset: {
      name: s.evalSetup.sourceName,
      hash: datasetHash(items),
      size: items.length,
      mapping: s.evalSetup.mapping,
      ...(s.evalSetup.hfSource ? { source: s.evalSetup.hfSource } : {}),
    },
    instruction: s.evalSetup.instruction ?? undefined,
    benchmark: s.evalSetup.benchmark ?? undefined,
    strategies,
    repeats: s.evalSetup.repeats,
    seed: Math.floor(Math.random() * 2 ** 31),
    scorer: {
      id: scorerId,
      options: kind.needsJudge ? judgeOptions(s.evalSetup.judge, s.evalSetup.rubric) : {},
      version: 0,
      ...(kind.takesProfile && s.evalSetup.profile ? { profile: s.evalSetup.profile } : {}),
    },
    pool: s.pool,
    conductor: conductorConfigOf(s),
    concurrency: s.evalSetup.concurrency,
    maxCost: cap.value,
  });
  await evalStore().saveEvaluation(evaluation, items);
  await runStored(evaluation, items, []);
}

/**
 * The evaluation's pool is stored without headers; its calls send the headers the studio's worker
 * of the same id has now (secret values stay bound to the origin they were entered for).
 */
function withHeaders(w: Worker): Worker {
  const now = useStudio.getState().pool.find((p) => p.id === w.id);
  return now?.headers ? { ...w, headers: now.headers, plainHeaders: now.plainHeaders } : w;
}

async function runStored(
  evaluation: Evaluation,
  items: EvalItem[],
  previous: Awaited<ReturnType<EvalStore["listItems"]>>,
  partials: ReadonlyMap<string, RunRecord> = new Map(),
) {
  const s = useStudio.getState();
  const made = sessionScoring(evaluation.scorer, evaluation.concurrency, studioScoringDeps());
  if (!made.ok) return s.patchEval({ evalMessage: made.message });
  const ev = {
    ...evaluation,
    scorer: { ...evaluation.scorer, ...withScorerVersion(evaluation.scorer, made.scorer) },
  };
  // The stored definition names the version that scores from now on (it once kept a placeholder
  // 0 until the end); each result also records the version that scored it.
  await evalStore().saveEvaluation(ev, items);
  const conductor = conductorBackend(s);
  // Identical calls (endpoint, model, messages, parameters) are answered from the response cache.
  const cache = evaluationCache(s.evalSetup);
  const run = sessionRun(
    {
      evaluation: ev,
      items,
      backendFor: (w) =>
        cachedWorker(cache, workerBackend(useStudio.getState(), withHeaders(w)), w),
      conductorBackend:
        typeof conductor === "string"
          ? undefined
          : cachedConductor(cache, conductor, conductorConfigOf(s)),
      previous,
      partials,
      // A run a pause cut short is kept, so that resuming (even after a reload) continues it.
      onPartial: (key, record) => evalStore().savePartial(ev.id, key, record),
      prompt: { template: s.conductor.template, namedWorkers: s.conductor.namedWorkers },
      maxCallsPerRun: s.conductor.maxCalls || undefined,
      fallback: fallbackOf(s.conductor),
      onResult: async (result, record) => {
        await evalStore().saveItem(ev.id, result, record);
        // Every item is also a stored run in history (kind "evaluation"); a failure to store it
        // there is said, and the evaluation's own copy stays.
        const saved = await runStore()?.saveRun(record, {
          key: record.id,
          kind: "evaluation",
          evaluation: evalTagOf(ev, result),
        });
        if (saved && !saved.ok)
          useStudio
            .getState()
            .patchEval({ evalMessage: `History did not keep a run: ${saved.message}` });
        useStudio.getState().addEvalResult(result);
        // An open History lists the new item at once (its read is incremental and coalesced).
        listInHistory();
      },
      onProgress: (progress) => useStudio.getState().patchEval({ evalProgress: progress }),
    },
    made,
  );
  current = run;
  s.patchEval({
    evaluation: ev,
    evalResults: previous,
    evalQuestions: items,
    evalOpenItem: null,
    evalPhase: "running",
    evalMessage: null,
    evalResumable: null,
  });
  try {
    const outcome = await run.run();
    // Errored items (a call failed) are offered again: resuming runs only them. A cache that
    // could not store some answers is said, and changed nothing else.
    const said = [
      outcome.capBlock && capMessage(outcome.capBlock, outcome.done === previous.length),
      cacheWriteMessage(cache),
    ].filter((m): m is string => !!m);
    useStudio.getState().patchEval({
      evalPhase: outcome.status,
      evalResumable:
        outcome.errors > 0 ? { evaluation: ev, done: outcome.done, total: outcome.total } : null,
      ...(said.length && { evalMessage: said.join(" ") }),
    });
  } catch (e: unknown) {
    // Storage refused a write (quota, private mode): say so; the stored results stay valid.
    const why = e instanceof Error ? e.message : String(e);
    run.cancel();
    useStudio
      .getState()
      .patchEval({ evalPhase: "cancelled", evalMessage: `The evaluation stopped: ${why}` });
  } finally {
    if (current === run) current = null;
    listInHistory();
  }
}

/** Reads History again when it is open, so an evaluation's items show there as they are stored. */
function listInHistory(): void {
  if (useStudio.getState().historyOpen) void refreshHistory();
}

/** What the spending cap refused, in words: which estimate, against what was already committed. */
export function capMessage(b: CapBlock, nothingRan: boolean): string {
  const what = `${b.strategy} on item ${b.item} was estimated at ${formatCost(b.estimate)}`;
  const committed = b.committed > 0 ? ` on top of ${formatCost(b.committed)} spent or running` : "";
  return nothingRan
    ? `The spending cap of ${formatCost(b.cap)} blocks everything: the first item, ${what}${committed}, more than the cap. Raise the cap or leave it empty.`
    : `Stopped at the spending cap of ${formatCost(b.cap)}: the next item, ${what}${committed}, would pass it.`;
}

export function pauseEvaluation(): void {
  current?.pause();
  useStudio.getState().patchEval({ evalPhase: "paused" });
}

export function resumeEvaluation(): void {
  current?.resume();
  useStudio.getState().patchEval({ evalPhase: "running" });
}

export function cancelEvaluation(): void {
  current?.cancel();
}

/**
 * After a reload: the newest evaluation with items left (errored items count as left: resuming
 * runs them again), offered for resuming.
 */
export async function findResumable(): Promise<void> {
  if (current) return;
  const [latest] = await evalStore().listEvaluations();
  if (latest) await showStored(latest);
}

/** Puts a stored evaluation on screen: its report, and Resume when items are left or errored. */
async function showStored(evaluation: Evaluation): Promise<void> {
  const results = await evalStore().listItems(evaluation.id);
  const questions = await evalStore().loadQuestions(evaluation.id);
  const done = results.filter((r) => !r.error).length;
  const total = evaluation.dataset.size * evaluation.strategies.length * evaluation.repeats;
  const ui = useStudio.getState();
  // The same evaluation, stopped in this session, keeps how it ended (cancelled, at the cap) and
  // its progress; another one has no progress of this session to show.
  const same = ui.evaluation?.id === evaluation.id && ui.evalProgress !== null;
  const ended = same && (ui.evalPhase === "cancelled" || ui.evalPhase === "cost_cap");
  ui.patchEval({
    evaluation,
    evalResults: results,
    evalQuestions: questions,
    evalOpenItem: null,
    evalPhase: done >= total ? "finished" : ended ? ui.evalPhase : "idle",
    evalResumable: done < total ? { evaluation, done, total } : null,
    ...(same ? {} : { evalProgress: null }),
  });
}

/**
 * Opens a stored evaluation's report in the Evaluate view (History's evaluation row). While an
 * evaluation runs, only that one can be shown; a message says why another cannot.
 */
export async function openStoredEvaluation(evalId: string): Promise<string | null> {
  const ui = useStudio.getState();
  if (current) {
    if (ui.evaluation?.id !== evalId)
      return "An evaluation is running: pause or cancel it before opening another report.";
    ui.setEvalOpen(true);
    return null;
  }
  const evaluation = (await evalStore().listEvaluations()).find((e) => e.id === evalId);
  if (!evaluation) return "That evaluation is no longer stored (its item runs are kept).";
  await showStored(evaluation);
  useStudio.getState().setEvalOpen(true);
  return null;
}

/** Continues a stored evaluation: finished items are never run again. */
export async function resumeStored(keysChecked = false): Promise<void> {
  const r = useStudio.getState().evalResumable;
  if (!r) return;
  if (!keysChecked) {
    // Every worker of the evaluation's pool its strategies may call, the judge, the Conductor.
    const conductor = r.evaluation.strategies.some((st) => st.kind === "conductor");
    const owners = [
      ...r.evaluation.pool.map((w) => w.id),
      ...(conductor ? [CONDUCTOR_KEY_ID] : []),
    ];
    const then = () => void resumeStored(true);
    if (askForKeys(useStudio.getState(), owners, "Resume the evaluation", then)) return;
  }
  const items = await evalStore().loadQuestions(r.evaluation.id);
  const previous = await evalStore().listItems(r.evaluation.id);
  const partials = await evalStore().listPartials(r.evaluation.id);
  await runStored(r.evaluation, items, previous, partials);
}

/** Opens an item's run (of the evaluation on screen, or of `evalId`) in the studio as its graph, and closes the Evaluate view. */
export async function openItemRun(runId: string, evalId?: string): Promise<void> {
  const id = evalId ?? useStudio.getState().evaluation?.id;
  if (!id) return;
  const record = await evalStore().loadRecord(id, runId);
  if (!record) return useStudio.getState().patchEval({ evalMessage: "That run is not stored." });
  const message = await openRecord(record, [], null, "evaluation");
  if (message) return useStudio.getState().patchEval({ evalMessage: message });
  useStudio.getState().setEvalOpen(false);
}

/** The strategy a setup-form choice stands for now (studio settings, pool, workflow), or why none. */
export function strategyOfChoice(name: string): Strategy | string {
  const made = strategiesOf([name]);
  return typeof made === "string" ? made : (made[0] ?? "Unknown strategy.");
}

/** Strategy names offered on the setup form for the current pool. */
export function strategyChoices(): string[] {
  const pool = useStudio.getState().pool;
  return [
    "conductor",
    ...pool.map((w) => strategyName({ kind: "single", worker: w.name })),
    "moa",
    "chain",
    "best-of-n",
    "workflow",
  ];
}

/** The Conductor samples of the evaluation on screen as JSON lines (the CLI's --training-data rows). */
export async function trainingDataJsonl(): Promise<string> {
  const { evaluation, evalResults: results } = useStudio.getState();
  if (!evaluation) return "";
  const lines: string[] = [];
  for (const r of results) {
    if (r.strategy !== "conductor") continue;
    const record = await evalStore().loadRecord(evaluation.id, r.runId);
    const sample = record && conductorSample(r, record);
    if (sample) lines.push(JSON.stringify(sample));
  }
  return lines.length ? `${lines.join("\n")}\n` : "";
}
