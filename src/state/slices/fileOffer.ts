// The store's file-offer slice: a dropped file waiting for the user's word.
import type { StateCreator } from "zustand";
import type { StudioState } from "./store.ts";

/** A file waiting for the user's word: a large run, or a pool file dropped where runs go. */
export type FileOffer =
  | { kind: "large"; file: File }
  | { kind: "pool"; file: File; text: string; workers: number }
  /** A run file that would replace a draft the user typed and never ran. */
  | { kind: "draft"; file: File; steps: number };

export interface FileOfferSlice {
  /** The file the offer bar asks about; null when nothing waits. */
  fileOffer: FileOffer | null;
  setFileOffer: (offer: FileOffer | null) => void;
}

export const createFileOfferSlice: StateCreator<StudioState, [], [], FileOfferSlice> = (set) => ({
  fileOffer: null,
  setFileOffer: (fileOffer) => set({ fileOffer }),
});
