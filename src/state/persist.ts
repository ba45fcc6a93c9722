import { z } from "zod";
import { redactOwner } from "../engine/pool/headers.ts";
import { PLAN_GRAMMAR_MODES } from "../engine/conductor/constrain.ts";
import { PoolSchema, PriceSchema } from "../engine/schema/worker.ts";
import { DEFAULT_CONDUCTOR, DEFAULT_TELEMETRY } from "./settings.ts";
import type { StudioState } from "./store.ts";

/** Where settings live in this browser. Keys are deliberately not part of what is stored. */
export const SETTINGS_KEY = "conductor-studio.settings.v1";

const StoredSettingsSchema = z.object({
  pool: PoolSchema,
  conductor: z
    .object({
      backend: z.enum(["remote", "webllm"]),
      baseURL: z.string(),
      model: z.string(),
      temperature: z.number().min(0).max(2),
      maxTokens: z.number().int().positive(),
      template: z.string(),
      namedWorkers: z.boolean(),
      webllmModelId: z.string(),
      rounds: z.number().int().min(0).max(3),
      maxDepth: z.number().int().min(0).max(2),
      maxCalls: z.number().int().min(0),
      replanOnce: z.boolean(),
      fallbackWorker: z.string(),
      webllmGrammar: z.boolean(),
      webllmContextWindow: z.number().int().min(512).nullable(),
      remoteGrammar: z.record(z.string(), z.enum(PLAN_GRAMMAR_MODES)),
      // A price that no longer reads is dropped (unknown), not the whole settings with it.
      price: PriceSchema.optional().catch(undefined),
    })
    .partial(),
  maxSteps: z.number().int().positive().max(20).optional(),
  // Added later: absent in older stored settings; one that no longer reads is dropped alone.
  telemetry: z
    .object({ collectorURL: z.string(), content: z.boolean() })
    .partial()
    .optional()
    .catch(undefined),
});

type Stored = z.infer<typeof StoredSettingsSchema>;

/** Reads stored settings; anything unreadable is ignored (with a console note), never thrown. */
export function loadSettings(storage: Pick<Storage, "getItem">): Partial<StudioState> {
  const text = storage.getItem(SETTINGS_KEY);
  if (!text) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    console.warn("Conductor Studio: stored settings are not JSON; using defaults.");
    return {};
  }
  const parsed = StoredSettingsSchema.safeParse(raw);
  if (!parsed.success) {
    console.warn("Conductor Studio: stored settings are invalid; using defaults.");
    return {};
  }
  const s: Stored = parsed.data;
  return {
    pool: s.pool,
    conductor: { ...DEFAULT_CONDUCTOR, ...s.conductor },
    ...(s.maxSteps ? { maxSteps: s.maxSteps } : {}),
    ...(s.telemetry ? { telemetry: { ...DEFAULT_TELEMETRY, ...s.telemetry } } : {}),
  };
}

/** What is written: the pool and the Conductor settings, never keys nor secret header values. */
export function settingsToStore(s: StudioState): string {
  const stored: Stored = {
    pool: s.pool.map(redactOwner),
    conductor: s.conductor,
    maxSteps: s.maxSteps,
    // The collector's Authorization value is a secret: never stored.
    telemetry: { collectorURL: s.telemetry.collectorURL, content: s.telemetry.content },
  };
  return JSON.stringify(stored);
}
