import { create } from "zustand";
import type { HfRecordedSource } from "../engine/eval/dataset/hf-pin.ts";
import type { ParsedTable } from "../engine/eval/dataset/parse.ts";
import type { ColumnMapping, EvalItem } from "../engine/eval/dataset/schema.ts";
import { DEFAULT_COLUMNS } from "../engine/eval/dataset/schema.ts";
import type { EvalProgress, EvalStatus } from "../engine/eval/runner.ts";
import type { EvalResult, Evaluation } from "../engine/eval/schema.ts";
import type { CacheMode } from "../engine/llm/cache.ts";

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
  judge: string;
  /** The LLM judge's rubric; empty for the default. */
  rubric: string;
  maxCost: string;
  concurrency: number;
  /** A Hugging Face source as read (with its revision), recorded with the evaluation. */
  hfSource: HfRecordedSource | null;
  /** A benchmark preset's answer-format instruction (else the scorer's). */
  instruction: string | null;
  /** The response cache (on by default: README "The response cache in the studio") and its mode. */
  cache: boolean;
  cacheMode: CacheMode;
}

export interface EvalState {
  open: boolean;
  setup: EvalSetup;
  /** The evaluation being run or shown, its results so far and its progress. */
  evaluation: Evaluation | null;
  results: EvalResult[];
  /** The questions of the evaluation on screen (every row of its matrix, run or not). */
  questions: EvalItem[];
  /** The matrix cell open in place of the report (a question and a strategy), or null. */
  openItem: { item: string; strategy: string } | null;
  progress: EvalProgress | null;
  phase: EvalPhase;
  message: string | null;
  /** An unfinished evaluation found in storage after a reload. */
  resumable: { evaluation: Evaluation; done: number; total: number } | null;
  setOpen: (open: boolean) => void;
  patchSetup: (patch: Partial<EvalSetup>) => void;
  patch: (patch: Partial<Omit<EvalState, "setup">>) => void;
  addResult: (r: EvalResult) => void;
}

export const INITIAL_SETUP: EvalSetup = {
  sourceName: "",
  table: null,
  mapping: { ...DEFAULT_COLUMNS },
  skipBad: false,
  strategies: [],
  repeats: 1,
  scorer: "",
  judge: "",
  rubric: "",
  maxCost: "",
  concurrency: 4,
  hfSource: null,
  instruction: null,
  cache: true,
  cacheMode: "read-write",
};

/** The Evaluate view's state: ephemeral UI plus the evaluation on screen (storage holds the truth). */
export const useEval = create<EvalState>()((set) => ({
  open: false,
  setup: INITIAL_SETUP,
  evaluation: null,
  results: [],
  questions: [],
  openItem: null,
  progress: null,
  phase: "idle",
  message: null,
  resumable: null,
  setOpen: (open) => set({ open }),
  patchSetup: (patch) => set((s) => ({ setup: { ...s.setup, ...patch } })),
  patch: (patch) => set(patch),
  addResult: (r) => set((s) => ({ results: [...s.results, r] })),
}));
