import { create } from "zustand";
import type { ConnectionSlice } from "./connections.ts";
import { createConnectionSlice } from "./connections.ts";
import type { DocumentSlice } from "./document.ts";
import { createDocumentSlice } from "./document.ts";
import type { FileOfferSlice } from "./fileOffer.ts";
import { createFileOfferSlice } from "./fileOffer.ts";
import type { KeyPromptSlice } from "./keyPrompt.ts";
import { createKeyPromptSlice } from "./keyPrompt.ts";
import type { InBrowserSlice } from "./inbrowser.ts";
import { createInBrowserSlice } from "./inbrowser.ts";
import type { RunSlice } from "./run.ts";
import { createRunSlice } from "./run.ts";
import type { SettingsSlice } from "./settings.ts";
import { createSettingsSlice } from "./settings.ts";

export type StudioState = SettingsSlice &
  DocumentSlice &
  RunSlice &
  InBrowserSlice &
  FileOfferSlice &
  ConnectionSlice &
  KeyPromptSlice;

/** The one studio store, made of typed slices. Components read it through selectors. */
export const useStudio = create<StudioState>()((...a) => ({
  ...createSettingsSlice(...a),
  ...createDocumentSlice(...a),
  ...createRunSlice(...a),
  ...createInBrowserSlice(...a),
  ...createFileOfferSlice(...a),
  ...createConnectionSlice(...a),
  ...createKeyPromptSlice(...a),
}));
