// The store's evaluation-diff slice: the stored evaluation compared with the one on screen.
import type { StateCreator } from "zustand";
import type { StudioState, EvalDiffSlice } from "./studio-state.ts";
export type { EvalDiffSlice } from "./studio-state.ts";

export const createEvalDiffSlice: StateCreator<StudioState, [], [], EvalDiffSlice> = () => ({
  evalDiffChoices: [],
  evalDiffOther: null,
});
