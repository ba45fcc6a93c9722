import type { Failure } from "../errors.ts";
import { ErrorCode } from "../errors.ts";
import { z } from "zod";

/** Price in US dollars per million tokens. */
export const PriceSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
});
export type Price = z.infer<typeof PriceSchema>;

/** Request fields that extra body fields may not replace: they are the call itself. */
export const RESERVED_BODY_FIELDS = ["model", "messages", "stream"] as const;

/** Why extra request fields are refused (they would replace a reserved field), or null. */
export function extraBodyProblem(body: Record<string, unknown>): string | null {
  const clash = RESERVED_BODY_FIELDS.filter((k) => Object.hasOwn(body, k));
  return clash.length
    ? `Extra request fields cannot override ${clash.map((k) => `"${k}"`).join(", ")}; remove ${clash.length > 1 ? "them" : "it"}.`
    : null;
}

/** Extra fields merged into a worker's request body, e.g. `{"reasoning_effort": "low"}`. */
export const ExtraBodySchema = z.record(z.string(), z.unknown()).superRefine((body, ctx) => {
  const problem = extraBodyProblem(body);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/**
 * A worker in the pool. Keys are never part of it: they live in a separate key ring so that a pool
 * can be exported, logged and recorded without them.
 * - `openai`: any OpenAI-compatible chat endpoint;
 * - `webllm`: a model running in this browser;
 * - `conductor`: the Conductor itself (self-selection, docs/protocol.md §1.6).
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
  /**
   * Header names whose values are not secret (a provider's browser-access flag, say). Every other
   * header's value is a secret: it lives with the keys, and the pool holds only `[redacted]`.
   */
  plainHeaders: z.array(z.string()).optional(),
  /** Whether to append the step-by-step assistant prefill (off where an API rejects it). */
  prefill: z.boolean().default(false),
  /** Extra request fields (reasoning effort, `chat_template_kwargs`, provider routing). */
  extraBody: ExtraBodySchema.optional(),
});
export type Worker = z.infer<typeof WorkerSchema>;

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
  plainHeaders: z.array(z.string()).optional(),
  /** How the plan is constrained by a grammar (conductor/constrain.ts); absent means off. */
  planGrammar: z.enum(["off", "webllm", "vllm", "vllm-guided", "sglang"]).optional(),
  /** An in-browser Conductor's last measured speed on this device (tokens per second). */
  speed: z.object({ prefillTokensPerSec: z.number(), decodeTokensPerSec: z.number() }).optional(),
});
export type ConductorConfig = z.infer<typeof ConductorConfigSchema>;

/**
 * Reads extra request fields as a user types them: empty text means none; otherwise a JSON object
 * that replaces none of the reserved fields. Returns the fields or a message saying what is wrong.
 */
export function readExtraBody(
  text: string,
): { ok: true; body: Record<string, unknown> | undefined } | ({ ok: false } & Failure) {
  if (!text.trim()) return { ok: true, body: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e: unknown) {
    return {
      ok: false,
      code: ErrorCode.invalid_config,
      message: `Not valid JSON: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  const parsed = ExtraBodySchema.safeParse(value);
  if (!parsed.success) {
    const custom = parsed.error.issues.find((i) => i.code === "custom");
    return {
      ok: false,
      code: ErrorCode.invalid_config,
      message: custom?.message ?? 'Expected a JSON object, e.g. {"reasoning_effort": "low"}.',
    };
  }
  return { ok: true, body: Object.keys(parsed.data).length ? parsed.data : undefined };
}
