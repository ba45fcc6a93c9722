import type { Failure, Result } from "../engine/errors.ts";
import { ErrorCode, failure } from "../engine/errors.ts";
import { z } from "zod";
import { DEFAULT_MAX_STEPS, DEFAULT_ROUNDS } from "../engine/constants.ts";
import { namedWorkersAdvice } from "../engine/conductor/named-workers.ts";
import { describeIssues } from "../engine/schema/guards.ts";
import { GENERATION_FIELDS, LIMIT_FIELDS } from "../engine/schema/settings.ts";
import type { ConductorConfig, Pool } from "../engine/schema/worker.ts";
import { ExtraBodySchema } from "../engine/schema/worker.ts";
import type { UnknownKey } from "./config-keys.ts";
import { describeUnknownKeys, unknownKeys } from "./config-keys.ts";

const EndpointSchema = z.object({
  // http(s) only: a bare `localhost:8000` parses as a URL with the scheme "localhost:".
  baseURL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }),
  model: z.string().min(1),
  /** The name of the environment variable holding the key; the key itself never sits in a file. */
  apiKeyEnv: z.string().min(1).optional(),
  temperature: GENERATION_FIELDS.temperature.optional(),
  maxTokens: GENERATION_FIELDS.maxTokens.optional(),
  price: GENERATION_FIELDS.price.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Extra request fields merged into every call's body (never model, messages or stream). */
  extraBody: ExtraBodySchema.optional(),
});

/** The call fields a worker and the Conductor both take from their endpoint entry, in the order
 * the run record lists them; only the default token limit differs. */
const openaiEndpoint = (e: z.infer<typeof EndpointSchema>, defaultMaxTokens: number) => ({
  kind: "openai" as const,
  baseURL: e.baseURL,
  model: e.model,
  temperature: e.temperature ?? 0.2,
  maxTokens: e.maxTokens ?? defaultMaxTokens,
  price: e.price,
});

export const CliConfigSchema = z.object({
  conductor: EndpointSchema.extend({
    /** "Constrain the plan": which grammar field the Conductor's server takes (off by default). */
    planGrammar: z.enum(["off", "vllm", "vllm-guided", "sglang"]).optional(),
  }),
  workers: z
    .array(EndpointSchema.extend({ name: z.string().min(1), note: z.string().optional() }))
    .min(1),
  maxSteps: LIMIT_FIELDS.maxSteps.default(DEFAULT_MAX_STEPS),
  rounds: LIMIT_FIELDS.rounds.default(DEFAULT_ROUNDS),
  maxCalls: z.number().int().positive().optional(),
  /** Default: the one rule (engine/conductor/named-workers.ts), from the Conductor's model. */
  namedWorkers: LIMIT_FIELDS.namedWorkers.optional(),
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
/** A config with its defaults filled in, `namedWorkers` included. */
export type CliConfig = Omit<z.infer<typeof CliConfigSchema>, "namedWorkers"> & {
  namedWorkers: boolean;
};

export interface ResolvedConfig {
  config: CliConfig;
  conductor: ConductorConfig;
  pool: Pool;
  /** Keys by worker id, plus "conductor"; held in memory only. */
  keys: Map<string, string>;
  /** Keys the schema does not know (typos such as "maxStep"); ignored unless --strict. */
  unknownKeys: UnknownKey[];
}

/**
 * Validates a CLI config and resolves keys from the environment. Every problem becomes a message
 * that names the field; a key's value never appears in one.
 */
export function resolveConfig(
  text: string,
  env: NodeJS.ProcessEnv,
  /** "training": the Conductor is the policy being trained (prompts, reward), which sees ids. */
  purpose: "use" | "training" = "use",
): Result<ResolvedConfig> {
  let raw: unknown;
  try {
    // A byte-order mark (Windows editors write one) is not part of the JSON.
    raw = JSON.parse(text.replace(/^\uFEFF/, ""));
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
    return {
      ok: false,
      ...failure("invalid_config", describeIssues(parsed.error)),
    };
  }
  const config: CliConfig = {
    ...parsed.data,
    namedWorkers:
      parsed.data.namedWorkers ??
      namedWorkersAdvice({
        backend: "remote",
        model: parsed.data.conductor.model,
        webllmModelId: "",
        training: purpose === "training",
      }).on,
  };
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
      ...openaiEndpoint(w, 4096),
      note: w.note,
      headers: w.headers,
      prefill: false,
      ...(w.extraBody ? { extraBody: w.extraBody } : {}),
    };
  });
  if (missing.length)
    return {
      ok: false,
      ...failure("missing_key", [...new Set(missing)].join(", ")),
    };
  const c = config.conductor;
  const conductor: ConductorConfig = {
    ...openaiEndpoint(c, 1024),
    headers: c.headers,
    ...(c.planGrammar ? { planGrammar: c.planGrammar } : {}),
  };
  return {
    ok: true,
    config,
    conductor,
    pool,
    keys,
    unknownKeys: unknownKeys(CliConfigSchema, raw),
  };
}

export type LoadedConfig = { ok: true; resolved: ResolvedConfig } | ({ ok: false } & Failure);

/**
 * Reads and resolves the config file at `path`. Unknown keys are a warning (through `warn`), or an
 * error under `strict`; every failure is one message for the user (exit code 2).
 */
export async function loadConfig(
  path: string,
  env: NodeJS.ProcessEnv,
  options: { strict: boolean; warn: (line: string) => void },
): Promise<LoadedConfig> {
  let text: string;
  try {
    const { readFile } = await import("node:fs/promises");
    text = await readFile(path, "utf8");
  } catch (e: unknown) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      code: ErrorCode.invalid_config,
      message: `Cannot read the config file ${path}: ${why}`,
    };
  }
  const resolved = resolveConfig(text, env);
  if (!resolved.ok)
    return { ok: false, code: ErrorCode.invalid_config, message: `${path}: ${resolved.message}` };
  const unknown = resolved.unknownKeys;
  if (unknown.length && options.strict)
    return {
      ok: false,
      code: ErrorCode.invalid_config,
      message: `${path}: ${describeUnknownKeys(unknown)}. Fix the key, or drop --strict to ignore it.`,
    };
  if (unknown.length)
    options.warn(
      `Warning: ${path}: ${describeUnknownKeys(unknown)}; ignored (--strict refuses it).`,
    );
  return { ok: true, resolved };
}

/** loadConfig for a command: warnings and the refusal go to its stderr; undefined when refused. */
export async function loadCommandConfig(
  path: string,
  io: { env: NodeJS.ProcessEnv; stderr: (text: string) => void },
  strict = false,
): Promise<ResolvedConfig | undefined> {
  const loaded = await loadConfig(path, io.env, {
    strict,
    warn: (line) => io.stderr(`${line}\n`),
  });
  if (loaded.ok) return loaded.resolved;
  io.stderr(`${loaded.message}\n`);
  return undefined;
}

/** The config section of the help of every command that reads one (run, eval, serve). */
export const CONFIG_HELP = `Config (JSON; the same settings as the studio's):
  {"conductor": {"baseURL": "http://localhost:8000/v1", "model": "conductor-7b",
                 "apiKeyEnv": "ENV_NAME", "planGrammar": "off|vllm|vllm-guided|sglang"},
   "workers": [{"name": "GPT-5", "baseURL": "https://api.openai.com/v1", "model": "gpt-5",
                "apiKeyEnv": "OPENAI_API_KEY", "temperature": 0.2, "maxTokens": 4096,
                "price": {"input": 1.25, "output": 10}, "note": "...", "headers": {...},
                "extraBody": {...}}],
   "maxSteps": 5, "rounds": 0, "namedWorkers": false, "maxCalls": N, "timeoutMs": N,
   "retry": {"maxAttempts": N, "baseDelayMs": N, "maxDelayMs": N}}
  Each apiKeyEnv names the environment variable holding that endpoint's key; keys are read from
  the environment, sent only to their endpoint, and never written anywhere. price is dollars per
  million input / output tokens. An unknown key is a warning naming the closest known key
  (--strict makes it an error); a byte-order mark is accepted.
`;
