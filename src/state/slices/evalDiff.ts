// The store's evaluation-diff slice: the stored evaluation compared with the one on screen.
import type { StateCreator } from "zustand";
import type { EvalResult, Evaluation } from "../../engine/eval/schema.ts";
import type { StudioState } from "./store.ts";

/** The stored evaluation the one on screen is compared with (the diff's B side). */
export interface EvalDiffSlice {
  /** Stored evaluations of the same question set as the one on screen, newest first. */
  evalDiffChoices: Evaluation[];
  evalDiffOther: { evaluation: Evaluation; results: EvalResult[] } | null;
}

export const createEvalDiffSlice: StateCreator<StudioState, [], [], EvalDiffSlice> = () => ({
  evalDiffChoices: [],
  evalDiffOther: null,
});
