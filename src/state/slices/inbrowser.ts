// The store's in-browser Conductor slice: probe, load status, progress and cached models.
import type { StateCreator } from "zustand";
import type { ModelRecordLike } from "../../engine/llm/webllm/catalogue.ts";
import type { WebLLMStats } from "../../engine/llm/webllm/backend.ts";
import type { WebLLMProblem } from "../../engine/llm/webllm/errors.ts";
import type { CachedModel } from "../../engine/llm/webllm/loader.ts";
import type { WebGpuProbe } from "../../engine/llm/webllm/probe.ts";
import type { LoadProgress } from "../../engine/llm/webllm/progress.ts";
import type { StudioState } from "./store.ts";

export type InBrowserStatus = "idle" | "confirming" | "loading" | "ready" | "error";

/** The in-browser Conductor's lifecycle: probe, confirm, download and load, ready or failed. */
export interface InBrowserSlice {
  probe: WebGpuProbe | null;
  ibStatus: InBrowserStatus;
  /** The model being loaded or loaded. */
  ibModelId: string | null;
  ibProgress: LoadProgress | null;
  ibProblem: WebLLMProblem | null;
  ibStats: WebLLMStats | null;
  cachedModels: CachedModel[];
  /** The user's own MLC conversions (custom model records). */
  customRecords: ModelRecordLike[];
  persistence: { supported: boolean; persisted: boolean } | null;
  setInBrowser: (patch: Partial<Omit<InBrowserSlice, "setInBrowser">>) => void;
}

export const createInBrowserSlice: StateCreator<StudioState, [], [], InBrowserSlice> = (set) => ({
  probe: null,
  ibStatus: "idle",
  ibModelId: null,
  ibProgress: null,
  ibProblem: null,
  ibStats: null,
  cachedModels: [],
  customRecords: [],
  persistence: null,
  setInBrowser: (patch) => set(patch),
});
