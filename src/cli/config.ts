import { z } from "zod";
import type { Result } from "../engine/errors.ts";
import { failure } from "../engine/errors.ts";
import { describeIssues } from "../engine/schema/guards.ts";
import type { ConductorConfig, Pool } from "../engine/schema/worker.ts";
import { ExtraBodySchema, PriceSchema } from "../engine/schema/worker.ts";

const EndpointSchema = z.object({
  // http(s) only: a bare `localhost:8000` parses as a URL with the scheme "localhost:".
  baseURL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }),
  model: z.string().min(1),
  /** The name of the environment variable holding the key; the key itself never sits in a file. */
  apiKeyEnv: z.string().min(1).optional(),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().positive().optional(),
  price: PriceSchema.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Extra request fields merged into every call's body (never model, messages or stream). */
  extraBody: ExtraBodySchema.optional(),
});

export const CliConfigSchema = z.object({
  conductor: EndpointSchema.extend({
    /** "Constrain the plan": which grammar field the Conductor's server takes (off by default). */
    planGrammar: z.enum(["off", "vllm", "vllm-guided", "sglang"]).optional(),
  }),
  workers: z
    .array(EndpointSchema.extend({ name: z.string().min(1), note: z.string().optional() }))
    .min(1),
  maxSteps: z.number().int().positive().max(20).default(5),
  rounds: z.number().int().nonnegative().max(5).default(0),
  maxCalls: z.number().int().positive().optional(),
  namedWorkers: z.boolean().default(false),
  /** Per attempt of a model call, all of it (default 600 s in `run` and `serve`). */
  timeoutMs: z.number().int().positive().optional(),
  /** The longest silence within a streaming call, between chunks (default 120 s; 0 turns it off). */
  idleTimeoutMs: z.number().int().nonnegative().optional(),
  /** Retry policy overrides (attempts, backoff); the defaults suit real providers. */
  retry: z
    .object({
      maxAttempts: z.number().int().positive().max(10).optional(),
      baseDelayMs: z.number().nonnegative().optional(),
      maxDelayMs: z.number().nonnegative().optional(),
    })
    .optional(),
});
export type CliConfig = z.infer<typeof CliConfigSchema>;

export interface ResolvedConfig {
  config: CliConfig;
  conductor: ConductorConfig;
  pool: Pool;
  /** Keys by worker id, plus "conductor"; held in memory only. */
  keys: Map<string, string>;
}

/**
 * Validates a CLI config and resolves keys from the environment. Every problem becomes a message
 * that names the field; a key's value never appears in one.
 */
export function resolveConfig(text: string, env: NodeJS.ProcessEnv): Result<ResolvedConfig> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e: unknown) {
    return {
      ok: false,
      ...failure(
        "invalid_config",
        `not valid JSON (${e instanceof Error ? e.message : "parse error"}).`,
      ),
    };
  }
  const parsed = CliConfigSchema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, ...failure("invalid_config", describeIssues(parsed.error)) };
  }
  const config = parsed.data;
  const keys = new Map<string, string>();
  const missing: string[] = [];
  const takeKey = (id: string, envName: string | undefined) => {
    if (!envName) return;
    const value = env[envName];
    if (value) keys.set(id, value);
    else missing.push(envName);
  };
  takeKey("conductor", config.conductor.apiKeyEnv);
  const pool: Pool = config.workers.map((w, i) => {
    const id = `w${i}`;
    takeKey(id, w.apiKeyEnv);
    return {
      id,
      name: w.name,
      kind: "openai",
      baseURL: w.baseURL,
      model: w.model,
      temperature: w.temperature ?? 0.2,
      maxTokens: w.maxTokens ?? 4096,
      price: w.price,
      note: w.note,
      headers: w.headers,
      prefill: false,
      ...(w.extraBody ? { extraBody: w.extraBody } : {}),
    };
  });
  if (missing.length)
    return { ok: false, ...failure("missing_key", [...new Set(missing)].join(", ")) };
  const c = config.conductor;
  const conductor: ConductorConfig = {
    kind: "openai",
    baseURL: c.baseURL,
    model: c.model,
    temperature: c.temperature ?? 0.2,
    maxTokens: c.maxTokens ?? 1024,
    price: c.price,
    headers: c.headers,
    ...(c.planGrammar ? { planGrammar: c.planGrammar } : {}),
  };
  return { ok: true, config, conductor, pool, keys };
}
