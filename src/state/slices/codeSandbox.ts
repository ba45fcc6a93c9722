// The store's code-sandbox slice: the studio's one Python sandbox, once made.
import type { StateCreator } from "zustand";
import type { StudioState, CodeSandboxSlice } from "./studio-state.ts";
export type { CodeSandboxSlice } from "./studio-state.ts";

export const createCodeSandboxSlice: StateCreator<StudioState, [], [], CodeSandboxSlice> = () => ({
  codeSandbox: null,
});
