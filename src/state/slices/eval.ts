// The store's evaluation slice: the setup form, the evaluation on screen and its progress.
import type { StateCreator } from "zustand";
import type { HfRecordedSource } from "../../engine/eval/dataset/hf-pin.ts";
import type { ParsedTable } from "../../engine/eval/dataset/parse.ts";
import type { ColumnMapping, EvalItem } from "../../engine/eval/dataset/schema.ts";
import { DEFAULT_COLUMNS } from "../../engine/eval/dataset/schema.ts";
import type { EvalProgress, EvalStatus } from "../../engine/eval/runner.ts";
import type { EvalResult, Evaluation } from "../../engine/eval/schema.ts";
import type { CacheMode } from "../../engine/llm/cache.ts";
import type { StudioState } from "./store.ts";

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

export const INITIAL_SETUP: EvalSetup = {
  sourceName: "",
  table: null,
  mapping: { ...DEFAULT_COLUMNS },
  skipBad: false,
  strategies: [],
  repeats: 1,
  scorer: "",
  profile: "",
  judge: "",
  rubric: "",
  maxCost: "",
  concurrency: 4,
  hfSource: null,
  instruction: null,
  benchmark: null,
  cache: true,
  cacheMode: "read-write",
};

export const createEvalSlice: StateCreator<StudioState, [], [], EvalSlice> = (set) => ({
  evalOpen: false,
  evalSetup: INITIAL_SETUP,
  evaluation: null,
  evalResults: [],
  evalQuestions: [],
  evalOpenItem: null,
  evalProgress: null,
  evalPhase: "idle",
  evalMessage: null,
  evalResumable: null,
  setEvalOpen: (evalOpen) => set({ evalOpen }),
  patchEvalSetup: (patch) => set((s) => ({ evalSetup: { ...s.evalSetup, ...patch } })),
  patchEval: (patch) => set(patch),
  addEvalResult: (r) => set((s) => ({ evalResults: [...s.evalResults, r] })),
});
