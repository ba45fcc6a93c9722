// The studio's one zustand store, made of the typed slices.
import { create } from "zustand";
import { createCodeSandboxSlice } from "./codeSandbox.ts";
import { createConnectionSlice } from "./connections.ts";
import { createDocumentSlice } from "./document.ts";
import { createEvalSlice } from "./eval.ts";
import { createEvalDiffSlice } from "./evalDiff.ts";
import { createFileOfferSlice } from "./fileOffer.ts";
import { createHistorySlice } from "./history.ts";
import { createKeyPromptSlice } from "./keyPrompt.ts";
import { createInBrowserSlice } from "./inbrowser.ts";
import { createRunSlice } from "./run.ts";
import { createSettingsSlice } from "./settings.ts";
import { createUiSlice } from "./ui.ts";
import type { StudioState } from "./studio-state.ts";
export type { StudioState } from "./studio-state.ts";

/** The one studio store, made of typed slices. Components read it through selectors. */
export const useStudio = create<StudioState>()((...a) => ({
  ...createSettingsSlice(...a),
  ...createDocumentSlice(...a),
  ...createRunSlice(...a),
  ...createInBrowserSlice(...a),
  ...createFileOfferSlice(...a),
  ...createConnectionSlice(...a),
  ...createKeyPromptSlice(...a),
  ...createUiSlice(...a),
  ...createHistorySlice(...a),
  ...createEvalSlice(...a),
  ...createEvalDiffSlice(...a),
  ...createCodeSandboxSlice(...a),
}));
