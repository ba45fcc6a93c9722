// The store's settings slice: the Conductor, the pool, the run and telemetry settings.
import type { StateCreator } from "zustand";
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_STEPS, DEFAULT_ROUNDS } from "../../engine/constants.ts";
import type { PlanGrammarMode } from "../../engine/conductor/constrain.ts";
import { namedWorkersAdvice } from "../../engine/conductor/named-workers.ts";
import { DEFAULT_TEMPLATE } from "../../engine/conductor/prompt.ts";
import type { FallbackPolicy } from "../../engine/exec/fallback.ts";
import { currentOrigin } from "./keybinding.ts";
import { fieldEditLabel, recordEdit, stepHistory } from "./poolHistory.ts";
import type {
  StudioState,
  ConductorSettings,
  TelemetrySettings,
  SettingsSlice,
} from "./studio-state.ts";
export type { ConductorSettings, TelemetrySettings, SettingsSlice } from "./studio-state.ts";

/** The most refinement rounds and nesting levels the settings offer (engine/constants.ts). */
export { MAX_DEPTH, MAX_ROUNDS } from "../../engine/constants.ts";

const DEFAULT_CONDUCTOR_IDENTITY = {
  backend: "webllm",
  model: "conductor-7b",
  webllmModelId: "Qwen2.5-7B-Instruct-q4f16_1-MLC",
} as const;

export const DEFAULT_CONDUCTOR: ConductorSettings = {
  ...DEFAULT_CONDUCTOR_IDENTITY,
  baseURL: "http://localhost:8000/v1",
  temperature: 0.2,
  maxTokens: 1024,
  template: DEFAULT_TEMPLATE,
  // The prebuilt base model is a prompted general model: names on (the one rule,
  // docs/protocol.md §1.4).
  namedWorkers: namedWorkersAdvice(DEFAULT_CONDUCTOR_IDENTITY).on,
  rounds: DEFAULT_ROUNDS,
  maxDepth: DEFAULT_MAX_DEPTH,
  maxCalls: 0,
  replanOnce: false,
  fallbackWorker: "",
  webllmGrammar: true,
  webllmContextWindow: null,
  remoteGrammar: {},
};

/** What a run does when the Conductor cannot plan (FallbackPolicy), from these settings. */
export function fallbackOf(c: ConductorSettings): FallbackPolicy {
  return {
    replans: c.replanOnce ? 1 : 0,
    ...(c.fallbackWorker ? { workerId: c.fallbackWorker } : {}),
  };
}

/** The grammar mode the Conductor's plans are decoded under with these settings. */
export function planGrammarOf(c: ConductorSettings): PlanGrammarMode {
  if (c.backend === "webllm") return c.webllmGrammar ? "webllm" : "off";
  return c.remoteGrammar[c.baseURL.trim()] ?? "off";
}

/**
 * Where the studio sends runs as OpenTelemetry traces, if anywhere. `authorization` (a collector's
 * Authorization header, e.g. Langfuse's Basic auth) is a secret: kept in memory only, never stored.
 */
export const DEFAULT_TELEMETRY: TelemetrySettings = {
  collectorURL: "",
  content: false,
  authorization: "",
  protocol: "http/protobuf",
  conventions: "current",
};

export const createSettingsSlice: StateCreator<StudioState, [], [], SettingsSlice> = (set) => ({
  conductor: DEFAULT_CONDUCTOR,
  pool: [],
  keys: {},
  keyOrigins: {},
  rememberKeys: false,
  keyed: [],
  maxSteps: DEFAULT_MAX_STEPS,
  telemetry: DEFAULT_TELEMETRY,
  settingsReport: null,
  dismissSettingsReport: () => set({ settingsReport: null }),
  setTelemetry: (patch) => set((s) => ({ telemetry: { ...s.telemetry, ...patch } })),
  setConductor: (patch) => set((s) => ({ conductor: { ...s.conductor, ...patch } })),
  setPool: (pool, label = "change the pool") =>
    set((s) => ({ pool, ...recordEdit(s, s, s.pool, pool, label) })),
  updateWorker: (id, patch) =>
    set((s) => {
      const old = s.pool.find((w) => w.id === id);
      if (!old) return {};
      const pool = s.pool.map((w) => (w === old ? { ...w, ...patch } : w));
      const fields = Object.keys(patch).sort();
      const label = fieldEditLabel(fields, old.name);
      return { pool, ...recordEdit(s, s, s.pool, pool, label, `${id}:${fields.join(",")}`) };
    }),
  addWorker: (worker) =>
    set((s) => {
      const pool = [...s.pool, worker];
      return { pool, ...recordEdit(s, s, s.pool, pool, `add “${worker.name}”`) };
    }),
  removeWorker: (id) =>
    set((s) => {
      const gone = s.pool.find((w) => w.id === id);
      if (!gone) return {};
      const pool = s.pool.filter((w) => w !== gone);
      return { pool, ...recordEdit(s, s, s.pool, pool, `remove “${gone.name}”`) };
    }),
  poolUndo: [],
  poolRedo: [],
  undoPool: () => set((s) => stepHistory(s, s, "undo") ?? {}),
  redoPool: () => set((s) => stepHistory(s, s, "redo") ?? {}),
  setKey: (id, key, origin) =>
    set((s) => {
      const keys = { ...s.keys };
      const keyOrigins = { ...s.keyOrigins };
      if (key) {
        keys[id] = key;
        keyOrigins[id] = origin ?? currentOrigin(s, id) ?? "";
      } else {
        delete keys[id];
        delete keyOrigins[id];
      }
      return { keys, keyOrigins };
    }),
  confirmKey: (id) =>
    set((s) =>
      s.keys[id] ? { keyOrigins: { ...s.keyOrigins, [id]: currentOrigin(s, id) ?? "" } } : {},
    ),
  setRememberKeys: (rememberKeys) => set({ rememberKeys }),
  forgetAllKeys: () => set({ keys: {}, keyOrigins: {}, rememberKeys: false, keyed: [] }),
});
