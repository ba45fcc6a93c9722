/**
 * The settings schema that the studio's stored settings and the CLI's config share where they
 * overlap: the limits of a run and a model's generation settings. The studio reads its stored
 * settings through it tolerantly (tolerant.ts); the CLI strictly (a config file is the user's own
 * text, and a mistake there is reported, not skipped).
 */
import { z } from "zod";
import { PLAN_GRAMMAR_MODES } from "../conductor/constrain.ts";
import { OTLP_PROTOCOLS } from "../otel/endpoint.ts";
import { GEN_AI_CONVENTIONS } from "../otel/span.ts";
import { MAX_DEPTH, MAX_ROUNDS, MAX_STEPS_CAP } from "../constants.ts";
import { PriceSchema } from "./worker.ts";

/** A run's limits. */
export const LIMIT_FIELDS = {
  maxSteps: z.number().int().positive().max(MAX_STEPS_CAP),
  /** Refinement rounds after the first (docs/protocol.md §1.6); 0 runs one round. */
  rounds: z.number().int().min(0).max(MAX_ROUNDS),
  /** Levels of self-selection. */
  maxDepth: z.number().int().min(0).max(MAX_DEPTH),
  /** Show worker names and notes to the Conductor (docs/protocol.md §1.4). */
  namedWorkers: z.boolean(),
} as const;

/** How a model is called: sampling, length and price (dollars per million tokens). */
export const GENERATION_FIELDS = {
  temperature: z.number().min(0).max(2),
  maxTokens: z.number().int().positive(),
  price: PriceSchema,
} as const;

/** The studio's Conductor settings as stored, field by field. */
export const STORED_CONDUCTOR_FIELDS = {
  backend: z.enum(["remote", "webllm"]),
  baseURL: z.string(),
  model: z.string(),
  temperature: GENERATION_FIELDS.temperature,
  maxTokens: GENERATION_FIELDS.maxTokens,
  template: z.string(),
  namedWorkers: LIMIT_FIELDS.namedWorkers,
  webllmModelId: z.string(),
  rounds: LIMIT_FIELDS.rounds,
  maxDepth: LIMIT_FIELDS.maxDepth,
  /** Cap on model calls in a run; 0 for none. */
  maxCalls: z.number().int().min(0),
  replanOnce: z.boolean(),
  fallbackWorker: z.string(),
  webllmGrammar: z.boolean(),
  webllmContextWindow: z.number().int().min(512).nullable(),
  remoteGrammar: z.record(z.string(), z.enum(PLAN_GRAMMAR_MODES)),
  price: GENERATION_FIELDS.price,
} as const;

/** The studio's tracing settings as stored (the collector's Authorization value never is). */
export const STORED_TELEMETRY_FIELDS = {
  collectorURL: z.string(),
  content: z.boolean(),
  /** Added later: settings stored without them read as the defaults (protobuf, current names). */
  protocol: z.enum(OTLP_PROTOCOLS),
  conventions: z.enum(GEN_AI_CONVENTIONS),
} as const;
