import { z } from "zod";

/** Price in US dollars per million tokens. */
export const PriceSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
});
export type Price = z.infer<typeof PriceSchema>;

/**
 * A worker in the pool. Keys are never part of it: they live in a separate key ring so that a pool
 * can be exported, logged and recorded without them.
 * - `openai`: any OpenAI-compatible chat endpoint;
 * - `webllm`: a model running in this browser;
 * - `conductor`: the Conductor itself (self-selection, SPEC 1.6).
 */
export const WorkerSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  kind: z.enum(["openai", "webllm", "conductor"]).default("openai"),
  provider: z.string().optional(),
  baseURL: z.string().default(""),
  model: z.string().default(""),
  temperature: z.number().min(0).max(2).default(0.2),
  maxTokens: z.number().int().positive().default(4096),
  price: PriceSchema.optional(),
  note: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Whether to append the step-by-step assistant prefill (off where an API rejects it). */
  prefill: z.boolean().default(false),
});
export type Worker = z.infer<typeof WorkerSchema>;
export type WorkerInput = z.input<typeof WorkerSchema>;

export const PoolSchema = z.array(WorkerSchema);
export type Pool = Worker[];

/** The Conductor's own endpoint and generation settings. */
export const ConductorConfigSchema = z.object({
  kind: z.enum(["openai", "webllm"]).default("openai"),
  baseURL: z.string().default(""),
  model: z.string().min(1),
  temperature: z.number().min(0).max(2).default(0.2),
  maxTokens: z.number().int().positive().default(1024),
  price: PriceSchema.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** How the plan is constrained by a grammar (conductor/constrain.ts); absent means off. */
  planGrammar: z.enum(["off", "webllm", "vllm", "vllm-guided", "sglang"]).optional(),
});
export type ConductorConfig = z.infer<typeof ConductorConfigSchema>;
