// The store's evaluation slice: the setup form, the evaluation on screen and its progress.
import type { StateCreator } from "zustand";
import { DEFAULT_COLUMNS } from "../../engine/eval/dataset/item-schema.ts";
import type { StudioState, EvalSetup, EvalSlice } from "./studio-state.ts";
export type { EvalPhase, EvalSetup, EvalSlice } from "./studio-state.ts";

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
