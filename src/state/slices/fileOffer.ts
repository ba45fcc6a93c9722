// The store's file-offer slice: a dropped file waiting for the user's word.
import type { StateCreator } from "zustand";
import type { StudioState, FileOfferSlice } from "./studio-state.ts";
export type { FileOffer, FileOfferSlice } from "./studio-state.ts";

export const createFileOfferSlice: StateCreator<StudioState, [], [], FileOfferSlice> = (set) => ({
  fileOffer: null,
  setFileOffer: (fileOffer) => set({ fileOffer }),
});
