// The studio state's types: every slice's fields and actions, and the whole state they make. Only
// types live here, so the slices, the store and the helpers beside them all import it and it
// imports none of them (no circle between the store and its slices).
import type { Sandbox } from "../../engine/eval/code/pool.ts";
import type { HfRecordedSource } from "../../engine/eval/dataset/hf-pin.ts";
import type { ParsedTable } from "../../engine/eval/dataset/parse.ts";
import type { ColumnMapping, EvalItem } from "../../engine/eval/dataset/item-schema.ts";
import type { EvalProgress, EvalStatus } from "../../engine/eval/runner.ts";
import type { EvalResult, Evaluation } from "../../engine/eval/schema.ts";
import type { PlanGrammarMode } from "../../engine/conductor/constrain.ts";
import type { WorkflowDoc } from "../../engine/graph/document.ts";
import type { Edit } from "../../engine/graph/edit.ts";
import type { Capture, History } from "../../engine/graph/history.ts";
import type { CacheMode } from "../../engine/llm/cache.ts";
import type { ModelRecordLike } from "../../engine/llm/webllm/catalogue.ts";
import type { WebLLMStats } from "../../engine/llm/webllm/backend.ts";
import type { WebLLMProblem } from "../../engine/llm/webllm/webllm-errors.ts";
import type { CachedModel } from "../../engine/llm/webllm/loader.ts";
import type { WebGpuProbe } from "../../engine/llm/webllm/probe.ts";
import type { LoadProgress } from "../../engine/llm/webllm/progress.ts";
import type { OtlpProtocol } from "../../engine/otel/endpoint.ts";
import type { GenAiConventions } from "../../engine/otel/span.ts";
import type { Focus } from "../../engine/run/focus.ts";
import type { RunEvent } from "../../engine/schema/events.ts";
import type { RetryState, RunRecord, StepStatus } from "../../engine/schema/record.ts";
import type { ChatMessage, Usage } from "../../engine/schema/usage.ts";
import type { Price, Worker } from "../../engine/schema/worker.ts";
import type { StorageInfo } from "../../engine/store/browser-storage.ts";
import type { HistoryEntry, HistoryFilter } from "../../engine/store/history-view.ts";
import type { RunMeta, StoredRecord } from "../../engine/store/db-schema.ts";

/** The studio's one Python sandbox for the code scorer, once made (codeSandboxController.ts). */
export interface CodeSandboxSlice {
  codeSandbox: Sandbox | null;
}

export interface ConnectionSlice {
  /** Workers whose "Test connection" succeeded from this page: the browser-access note says so. */
  testedWorkers: ReadonlySet<string>;
  /** Records a connection test's outcome: a failure forgets an earlier success. */
  markTested: (workerId: string, ok: boolean) => void;
}

/** What the studio shows of a run; an undo across a run's replacement brings it back whole. */
export type RunView = Pick<
  StudioState,
  "record" | "results" | "runStepIds" | "openKey" | "exportedAt" | "question" | "focus"
>;

export interface DocumentSlice {
  question: string;
  /** The document (steps and user-set positions) with its undo history. */
  history: History<WorkflowDoc>;
  selectedIds: string[];
  /** The last message for the user about an edit (a refused edge, say), cleared by the next edit. */
  notice: string | null;
  setQuestion: (question: string) => void;
  /** Applies an edit as an undo step (folded into the previous one when `group` matches). */
  edit: (edit: Edit, group?: string) => boolean;
  /**
   * Replaces the document, e.g. with a Conductor plan; `Capture.Undoable` records the old one first.
   * `runBefore`: the replacement also replaced the run shown (an import, a plan), and undoing it
   * shows this run again, outputs and all.
   */
  replaceDoc: (doc: WorkflowDoc, capture: Capture, runBefore?: RunView) => void;
  endEditGroup: () => void;
  /** Starts editing another workflow: a fresh undo history, nothing selected. */
  resetDoc: (doc: WorkflowDoc) => void;
  undo: () => void;
  redo: () => void;
  select: (ids: string[]) => void;
  setNotice: (notice: string | null) => void;
}

export type EvalPhase = "idle" | "running" | "paused" | EvalStatus;

/** Strategy choices on the setup form, by strategy name (`conductor`, `single:<name>`, ...). */
export interface EvalSetup {
  sourceName: string;
  table: ParsedTable | null;
  mapping: ColumnMapping;
  skipBad: boolean;
  strategies: string[];
  repeats: number;
  scorer: string;
  /** The math scorer's grader profile; empty for the default. */
  profile: string;
  judge: string;
  /** The LLM judge's rubric; empty for the default. */
  rubric: string;
  maxCost: string;
  concurrency: number;
  /** A Hugging Face source as read (with its revision), recorded with the evaluation. */
  hfSource: HfRecordedSource | null;
  /** A benchmark preset's answer-format instruction (else the scorer's). */
  instruction: string | null;
  /** The benchmark preset the questions came from (it names the evaluation's Table 1 column). */
  benchmark: { id: string; name: string } | null;
  /** The response cache (on by default: docs/cache.md, "in the studio") and its mode. */
  cache: boolean;
  cacheMode: CacheMode;
}

/** The Evaluate view: ephemeral UI plus the evaluation on screen (storage holds the truth). */
export interface EvalSlice {
  evalOpen: boolean;
  evalSetup: EvalSetup;
  /** The evaluation being run or shown, its results so far and its progress. */
  evaluation: Evaluation | null;
  evalResults: EvalResult[];
  /** The questions of the evaluation on screen (every row of its matrix, run or not). */
  evalQuestions: EvalItem[];
  /** The matrix cell open in place of the report (a question and a strategy), or null. */
  evalOpenItem: { item: string; strategy: string } | null;
  evalProgress: EvalProgress | null;
  evalPhase: EvalPhase;
  evalMessage: string | null;
  /** An unfinished evaluation found in storage after a reload. */
  evalResumable: { evaluation: Evaluation; done: number; total: number } | null;
  setEvalOpen: (open: boolean) => void;
  patchEvalSetup: (patch: Partial<EvalSetup>) => void;
  patchEval: (patch: Partial<EvalFields>) => void;
  addEvalResult: (r: EvalResult) => void;
}

/** The Evaluate view's fields that patchEval sets (the setup form has patchEvalSetup). */
type EvalFields = Omit<
  EvalSlice,
  "evalSetup" | "setEvalOpen" | "patchEvalSetup" | "patchEval" | "addEvalResult"
>;

/** The stored evaluation the one on screen is compared with (the diff's B side). */
export interface EvalDiffSlice {
  /** Stored evaluations of the same question set as the one on screen, newest first. */
  evalDiffChoices: Evaluation[];
  evalDiffOther: { evaluation: Evaluation; results: EvalResult[] } | null;
}

/** A file waiting for the user's word: a large run, or a pool file dropped where runs go. */
export type FileOffer =
  | { kind: "large"; file: File }
  | { kind: "pool"; file: File; text: string; workers: number }
  /** A run file that would replace a draft the user typed and never ran. */
  | { kind: "draft"; file: File; steps: number };

export interface FileOfferSlice {
  /** The file the offer bar asks about; null when nothing waits. */
  fileOffer: FileOffer | null;
  setFileOffer: (offer: FileOffer | null) => void;
}

export type HistoryQuery = HistoryFilter;

/** The History panel: stored runs as last read, the query, the selection (historyController.ts reads). */
export interface HistorySlice {
  historyOpen: boolean;
  /** Every stored row, newest first, as last read (filtered and searched in memory). */
  historyAll: RunMeta[];
  /** What the list shows for the query: runs and evaluations (their items folded). */
  historyEntries: HistoryEntry[];
  /** The runs among the entries (selection, compare and export work on runs). */
  historyRows: RunMeta[];
  historyQuery: HistoryQuery;
  historySelected: string[];
  historyStorage: (StorageInfo & { runs: number; bytes: number }) | null;
  /** The last delete, undoable for UNDO_MS after it (historyController.ts deleteRuns). */
  historyDeleted: { count: number; removed: { rows: RunMeta[]; records: StoredRecord[] } } | null;
  /** Two stored keys to compare side by side. */
  historyCompare: [string, string] | null;
  historyError: string | null;
  setHistoryQuery: (patch: Partial<HistoryQuery>) => void;
  toggleHistorySelected: (key: string) => void;
  setHistoryCompare: (pair: [string, string] | null) => void;
}

export type InBrowserStatus = "idle" | "confirming" | "loading" | "ready" | "error";

/** The in-browser Conductor's lifecycle: probe, confirm, download and load, ready or failed. */
export interface InBrowserSlice {
  probe: WebGpuProbe | null;
  ibStatus: InBrowserStatus;
  /** The model being loaded or loaded. */
  ibModelId: string | null;
  ibProgress: LoadProgress | null;
  ibProblem: WebLLMProblem | null;
  ibStats: WebLLMStats | null;
  cachedModels: CachedModel[];
  /** The user's own MLC conversions (custom model records). */
  customRecords: ModelRecordLike[];
  persistence: { supported: boolean; persisted: boolean } | null;
  setInBrowser: (patch: Partial<Omit<InBrowserSlice, "setInBrowser">>) => void;
}

/** An endpoint whose key was entered in this browser but is not held now (a reload cleared it). */
export interface KeyNeed {
  /** The worker id, or CONDUCTOR_KEY_ID. */
  owner: string;
  name: string;
  /** The key-ring ids to fill: its API key and any secret header. */
  ids: string[];
}

/** What waits for keys ("Resume"), the endpoints that need them, and what to do once given. */
export interface KeyPrompt {
  what: string;
  needs: KeyNeed[];
  then: () => void;
}

export interface KeyPromptSlice {
  /** The key prompt on screen; null when no run waits for keys. */
  keyPrompt: KeyPrompt | null;
  setKeyPrompt: (prompt: KeyPrompt | null) => void;
}

/** A secret held for a worker: its value and the origin it was entered for. */
export type HeldSecret = [value: string, origin: string];

export interface PoolEntry {
  /** What the edit did, for "Undo: …" ("remove “GPT-4o”"). */
  label: string;
  pool: Worker[];
  /** The secrets of workers this entry's pool has and the pool after it lacks (removed ones). */
  secrets: Record<string, HeldSecret>;
  /** Consecutive edits with the same key are one step (typing into one field). */
  coalesce?: string;
}

/** What the canvas shows of one step's latest run, keyed by the step's stable id. */
export interface StepResult {
  status: StepStatus;
  output: string;
  messages: ChatMessage[];
  usage: Usage | null;
  cost: number | null;
  startedAt: number | null;
  finishedAt: number | null;
  attempts: number;
  error: { code: string; message: string } | null;
  /** The worker's reasoning, kept apart from `output`. */
  reasoning?: string;
  /** Set while the step waits to retry. */
  retry?: RetryState | null;
}

export type Phase = "idle" | "planning" | "running";

export interface RunSlice {
  /** The run record export sees: every event of the current run, folded. */
  record: RunRecord;
  /** Latest results per step id; survives edits (marked stale) until the next run replaces them. */
  results: Record<string, StepResult>;
  phase: Phase;
  /** Step ids of the running round, by index: maps engine events (indices) onto the document. */
  runStepIds: string[];
  /** The workflow the editor holds; events of other workflows only update the record. */
  focus: Focus;
  /** The stored key of the run on screen (null: nothing stored yet). */
  openKey: string | null;
  /** The run in flight, whether or not it is the one on screen. */
  liveId: string | null;
  /** When the run on screen was written, so that exporting it again gives the same file. */
  exportedAt: string | null;
  /** Applies a batch of the open run's events (flushed once per animation frame). */
  applyEvents: (events: RunEvent[]) => void;
  setPhase: (phase: Phase) => void;
  setRunStepIds: (ids: string[]) => void;
  setFocus: (focus: Focus) => void;
  setRecord: (record: RunRecord, results: Record<string, StepResult>) => void;
  setOpen: (open: Partial<Pick<RunSlice, "openKey" | "liveId" | "exportedAt">>) => void;
  markStale: (ids: Iterable<string>) => void;
}

export interface ConductorSettings {
  backend: "remote" | "webllm";
  baseURL: string;
  model: string;
  temperature: number;
  maxTokens: number;
  template: string;
  namedWorkers: boolean;
  /** The in-browser model to load (WebLLM catalogue id or a custom record id). */
  webllmModelId: string;
  /** Refinement rounds after the first (docs/protocol.md §1.6); 0 runs one round. */
  rounds: number;
  /** Levels of self-selection: a step given to the Conductor plans and runs a nested workflow. */
  maxDepth: number;
  /** Cap on model calls in a run (0: none). */
  maxCalls: number;
  /** Ask the Conductor once more when its plan does not parse. */
  replanOnce: boolean;
  /** The worker (by id) that answers alone when the Conductor cannot plan; "" for none. */
  fallbackWorker: string;
  /** Decode the in-browser Conductor's plan under the plan grammar (on by default). */
  webllmGrammar: boolean;
  /** The in-browser model's context window in tokens; null for the model's default (7B: 8,192). */
  webllmContextWindow: number | null;
  /** "Constrain the plan" for remote endpoints, by base URL: which grammar field the server takes. */
  remoteGrammar: Record<string, PlanGrammarMode>;
  /**
   * The remote Conductor's price in dollars per million tokens, so planning counts in a run's
   * cost; absent means unknown. The in-browser Conductor is free and ignores it.
   */
  price?: Price;
}

export interface TelemetrySettings {
  collectorURL: string;
  /** Record prompts, answers and reasoning in traces (the conventions' opt-in). */
  content: boolean;
  authorization: string;
  /** How traces are encoded on the wire (protobuf, as OpenTelemetry's SDKs and Phoenix). */
  protocol: OtlpProtocol;
  /** The GenAI convention names traces use. */
  conventions: GenAiConventions;
}

export interface SettingsSlice {
  conductor: ConductorSettings;
  pool: Worker[];
  /** API keys by worker id ("conductor" for the Conductor). Memory only: never persisted here. */
  keys: Record<string, string>;
  /** The origin each key was entered for (keybinding.ts): a key is sent only there. */
  keyOrigins: Record<string, string>;
  /** The user's opt-in to keep keys in this browser (keyring.ts stores them only while it is on). */
  rememberKeys: boolean;
  /** The ids of the secrets entered in this browser, never their values (keyring.ts KEYED_KEY). */
  keyed: string[];
  maxSteps: number;
  telemetry: TelemetrySettings;
  /** What loading the stored settings had to drop, said once (persist.ts settingsReport); null: nothing. */
  settingsReport: string | null;
  dismissSettingsReport: () => void;
  setTelemetry: (patch: Partial<TelemetrySettings>) => void;
  setConductor: (patch: Partial<ConductorSettings>) => void;
  /** Replaces the pool (undoable; `label` says what the change was, for "Undo: …"). */
  setPool: (pool: Worker[], label?: string) => void;
  updateWorker: (id: string, patch: Partial<Worker>) => void;
  addWorker: (worker: Worker) => void;
  removeWorker: (id: string) => void;
  /** Pool edits that can be undone and redone (poolHistory.ts). */
  poolUndo: PoolEntry[];
  poolRedo: PoolEntry[];
  undoPool: () => void;
  redoPool: () => void;
  /** Sets a key, bound to the origin its owner points at now (or `origin` when given). */
  setKey: (id: string, key: string, origin?: string) => void;
  /** Confirms that a held key applies where its owner points now: binds it to that origin. */
  confirmKey: (id: string) => void;
  setRememberKeys: (on: boolean) => void;
  /** Clears every key from memory and turns remembering off, which removes them from storage. */
  forgetAllKeys: () => void;
}

/** UI ephemera that several components share and nothing exports: dialogs, expanded groups. */
export interface UiSlice {
  settingsOpen: boolean;
  openSettings: () => void;
  closeSettings: () => void;
  /** Nested workflows drawn expanded, by group key. */
  expandedGroups: ReadonlySet<string>;
  toggleGroupExpanded: (key: string) => void;
  /** Bumped by "Tidy up": the canvas forgets the positions it kept and lays the graph out anew. */
  layoutEpoch: number;
  relayout: () => void;
  /**
   * The side panels shown as drawers over the canvas, at widths where they are not columns (see
   * useLayoutMode): which ones are open.
   */
  drawers: { left: boolean; right: boolean };
  /** Opens or closes a drawer; `alone` also closes the other (a window too narrow for both). */
  setDrawer: (side: "left" | "right", open: boolean, alone?: boolean) => void;
}

/**
 * The whole studio state. Slices are flat: a field or action whose bare name could belong to more
 * than one slice carries its slice's word (evalPhase beside the run's phase, setHistoryQuery,
 * patchEval), so no slice can overwrite another's field.
 */
export type StudioState = SettingsSlice &
  DocumentSlice &
  RunSlice &
  InBrowserSlice &
  FileOfferSlice &
  ConnectionSlice &
  KeyPromptSlice &
  UiSlice &
  HistorySlice &
  EvalSlice &
  EvalDiffSlice &
  CodeSandboxSlice;
