// The studio's one zustand store, made of the typed slices.
import { create } from "zustand";
import type { CodeSandboxSlice } from "./codeSandbox.ts";
import { createCodeSandboxSlice } from "./codeSandbox.ts";
import type { ConnectionSlice } from "./connections.ts";
import { createConnectionSlice } from "./connections.ts";
import type { DocumentSlice } from "./document.ts";
import { createDocumentSlice } from "./document.ts";
import type { EvalSlice } from "./eval.ts";
import { createEvalSlice } from "./eval.ts";
import type { EvalDiffSlice } from "./evalDiff.ts";
import { createEvalDiffSlice } from "./evalDiff.ts";
import type { FileOfferSlice } from "./fileOffer.ts";
import { createFileOfferSlice } from "./fileOffer.ts";
import type { HistorySlice } from "./history.ts";
import { createHistorySlice } from "./history.ts";
import type { KeyPromptSlice } from "./keyPrompt.ts";
import { createKeyPromptSlice } from "./keyPrompt.ts";
import type { InBrowserSlice } from "./inbrowser.ts";
import { createInBrowserSlice } from "./inbrowser.ts";
import type { RunSlice } from "./run.ts";
import { createRunSlice } from "./run.ts";
import type { SettingsSlice } from "./settings.ts";
import { createSettingsSlice } from "./settings.ts";
import type { UiSlice } from "./ui.ts";
import { createUiSlice } from "./ui.ts";

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
