import type { StateCreator } from "zustand";
import { DEFAULT_TEMPLATE } from "../engine/conductor/prompt.ts";
import type { Worker } from "../engine/schema/worker.ts";
import type { StudioState } from "./store.ts";

export interface ConductorSettings {
  backend: "remote" | "webllm";
  baseURL: string;
  model: string;
  temperature: number;
  maxTokens: number;
  template: string;
  namedWorkers: boolean;
  /** The in-browser model to load (WebLLM catalogue id or a custom record id). */
  webllmModelId: string;
}

export const DEFAULT_CONDUCTOR: ConductorSettings = {
  backend: "webllm",
  baseURL: "http://localhost:8000/v1",
  model: "conductor-7b",
  temperature: 0.2,
  maxTokens: 1024,
  template: DEFAULT_TEMPLATE,
  namedWorkers: true,
  webllmModelId: "Qwen2.5-7B-Instruct-q4f16_1-MLC",
};

export interface SettingsSlice {
  conductor: ConductorSettings;
  pool: Worker[];
  /** API keys by worker id ("conductor" for the Conductor). Memory only: never persisted here. */
  keys: Record<string, string>;
  maxSteps: number;
  setConductor: (patch: Partial<ConductorSettings>) => void;
  setPool: (pool: Worker[]) => void;
  updateWorker: (id: string, patch: Partial<Worker>) => void;
  addWorker: (worker: Worker) => void;
  removeWorker: (id: string) => void;
  setKey: (id: string, key: string) => void;
}

export const createSettingsSlice: StateCreator<StudioState, [], [], SettingsSlice> = (set) => ({
  conductor: DEFAULT_CONDUCTOR,
  pool: [],
  keys: {},
  maxSteps: 5,
  setConductor: (patch) => set((s) => ({ conductor: { ...s.conductor, ...patch } })),
  setPool: (pool) => set({ pool }),
  updateWorker: (id, patch) =>
    set((s) => ({ pool: s.pool.map((w) => (w.id === id ? { ...w, ...patch } : w)) })),
  addWorker: (worker) => set((s) => ({ pool: [...s.pool, worker] })),
  removeWorker: (id) => set((s) => ({ pool: s.pool.filter((w) => w.id !== id) })),
  setKey: (id, key) =>
    set((s) => {
      const keys = { ...s.keys };
      if (key) keys[id] = key;
      else delete keys[id];
      return { keys };
    }),
});
