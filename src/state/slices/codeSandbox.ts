// The store's code-sandbox slice: the studio's one Python sandbox, once made.
import type { StateCreator } from "zustand";
import type { Sandbox } from "../../engine/eval/code/pool.ts";
import type { StudioState } from "./store.ts";

/** The studio's one Python sandbox for the code scorer, once made (codeSandboxController.ts). */
export interface CodeSandboxSlice {
  codeSandbox: Sandbox | null;
}

export const createCodeSandboxSlice: StateCreator<StudioState, [], [], CodeSandboxSlice> = () => ({
  codeSandbox: null,
});
