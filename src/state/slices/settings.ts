// The store's settings slice: the Conductor, the pool, the run and telemetry settings.
import type { StateCreator } from "zustand";
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_STEPS, DEFAULT_ROUNDS } from "../../engine/constants.ts";
import type { PlanGrammarMode } from "../../engine/conductor/constrain.ts";
import { namedWorkersAdvice } from "../../engine/conductor/named-workers.ts";
import { DEFAULT_TEMPLATE } from "../../engine/conductor/prompt.ts";
import type { FallbackPolicy } from "../../engine/exec/fallback.ts";
import type { OtlpProtocol } from "../../engine/otel/endpoint.ts";
import type { GenAiConventions } from "../../engine/otel/span.ts";
import type { Price, Worker } from "../../engine/schema/worker.ts";
import { currentOrigin } from "./keybinding.ts";
import type { PoolEntry } from "./poolHistory.ts";
import { fieldEditLabel, recordEdit, stepHistory } from "./poolHistory.ts";
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
  /** Refinement rounds after the first (docs/protocol.md §1.6); 0 runs one round. */
  rounds: number;
  /** Levels of self-selection: a step given to the Conductor plans and runs a nested workflow. */
  maxDepth: number;
  /** Cap on model calls in a run (0: none). */
  maxCalls: number;
  /** Ask the Conductor once more when its plan does not parse. */
  replanOnce: boolean;
  /** The worker (by id) that answers alone when the Conductor cannot plan; "" for none. */
  fallbackWorker: string;
  /** Decode the in-browser Conductor's plan under the plan grammar (on by default). */
  webllmGrammar: boolean;
  /** The in-browser model's context window in tokens; null for the model's default (7B: 8,192). */
  webllmContextWindow: number | null;
  /** "Constrain the plan" for remote endpoints, by base URL: which grammar field the server takes. */
  remoteGrammar: Record<string, PlanGrammarMode>;
  /**
   * The remote Conductor's price in dollars per million tokens, so planning counts in a run's
   * cost; absent means unknown. The in-browser Conductor is free and ignores it.
   */
  price?: Price;
}

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
export interface TelemetrySettings {
  collectorURL: string;
  /** Record prompts, answers and reasoning in traces (the conventions' opt-in). */
  content: boolean;
  authorization: string;
  /** How traces are encoded on the wire (protobuf, as OpenTelemetry's SDKs and Phoenix). */
  protocol: OtlpProtocol;
  /** The GenAI convention names traces use. */
  conventions: GenAiConventions;
}

export const DEFAULT_TELEMETRY: TelemetrySettings = {
  collectorURL: "",
  content: false,
  authorization: "",
  protocol: "http/protobuf",
  conventions: "current",
};

export interface SettingsSlice {
  conductor: ConductorSettings;
  pool: Worker[];
  /** API keys by worker id ("conductor" for the Conductor). Memory only: never persisted here. */
  keys: Record<string, string>;
  /** The origin each key was entered for (keybinding.ts): a key is sent only there. */
  keyOrigins: Record<string, string>;
  /** The user's opt-in to keep keys in this browser (keyring.ts stores them only while it is on). */
  rememberKeys: boolean;
  /** The ids of the secrets entered in this browser, never their values (keyring.ts KEYED_KEY). */
  keyed: string[];
  maxSteps: number;
  telemetry: TelemetrySettings;
  /** What loading the stored settings had to drop, said once (persist.ts settingsReport); null: nothing. */
  settingsReport: string | null;
  dismissSettingsReport: () => void;
  setTelemetry: (patch: Partial<TelemetrySettings>) => void;
  setConductor: (patch: Partial<ConductorSettings>) => void;
  /** Replaces the pool (undoable; `label` says what the change was, for "Undo: …"). */
  setPool: (pool: Worker[], label?: string) => void;
  updateWorker: (id: string, patch: Partial<Worker>) => void;
  addWorker: (worker: Worker) => void;
  removeWorker: (id: string) => void;
  /** Pool edits that can be undone and redone (poolHistory.ts). */
  poolUndo: PoolEntry[];
  poolRedo: PoolEntry[];
  undoPool: () => void;
  redoPool: () => void;
  /** Sets a key, bound to the origin its owner points at now (or `origin` when given). */
  setKey: (id: string, key: string, origin?: string) => void;
  /** Confirms that a held key applies where its owner points now: binds it to that origin. */
  confirmKey: (id: string) => void;
  setRememberKeys: (on: boolean) => void;
  /** Clears every key from memory and turns remembering off, which removes them from storage. */
  forgetAllKeys: () => void;
}

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
