import { z } from "zod";
import type { Usage } from "../schema/usage.ts";
import { isObject } from "../schema/guards.ts";

/**
 * How OpenAI-compatible providers really fill a streamed chunk, read tolerantly: a field of an
 * unexpected shape is ignored rather than failing the call.
 */
const count = z.number().int().nonnegative();

/** `usage` as the wire carries it; `cost` is OpenRouter's figure in dollars. */
const WireUsageSchema = z.object({
  prompt_tokens: count,
  completion_tokens: count,
  cost: z.number().nonnegative().optional().catch(undefined),
  completion_tokens_details: z
    .object({ reasoning_tokens: count.nullish().catch(undefined) })
    .nullish()
    .catch(undefined),
});

/** llama.cpp's server reports `timings` instead of (or besides) usage. */
const TimingsSchema = z.object({ prompt_n: count, predicted_n: count });

const TextSchema = z.object({ text: z.string() });

/** A streamed piece of a chunk: answer text (which may still hold a `<think>` block) or reasoning. */
export type WirePiece = { type: "content" | "reasoning"; text: string };

export interface WireChunk {
  pieces: WirePiece[];
  /** A choice carried a finish_reason. */
  finished: boolean;
  /** The chunk's `usage` (or `x_groq.usage`), the figure to trust. */
  usage?: Usage;
  /** llama.cpp's `timings`: used only when no usage came. */
  timingsUsage?: Usage;
  /** An `error` object inside the stream. */
  error?: Record<string, unknown>;
}

function usageOf(value: unknown): Usage | undefined {
  // Most chunks carry none: a failed parse builds its issues, which cost more than the chunk.
  if (!isObject(value)) return undefined;
  const wire = WireUsageSchema.safeParse(value);
  if (!wire.success) return undefined;
  const reasoning = wire.data.completion_tokens_details?.reasoning_tokens;
  return {
    promptTokens: wire.data.prompt_tokens,
    completionTokens: wire.data.completion_tokens,
    estimated: false,
    ...(wire.data.cost !== undefined ? { providerCost: wire.data.cost } : {}),
    ...(typeof reasoning === "number" ? { reasoningTokens: reasoning } : {}),
  };
}

/** The text of a thinking part: a string, or (Mistral's Magistral) a list of text parts. */
function thinkingText(value: unknown): string {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return "";
  return value.map((p) => TextSchema.safeParse(p).data?.text ?? "").join("");
}

/**
 * Content as providers send it: a string, or an array of parts whose text parts are the answer and
 * whose thinking (or reasoning) parts are reasoning; any other part (images, citations) is ignored.
 */
export function contentPieces(content: unknown): WirePiece[] {
  if (typeof content === "string") return content ? [{ type: "content", text: content }] : [];
  if (!Array.isArray(content)) return [];
  const pieces: WirePiece[] = [];
  for (const part of content) {
    if (!isObject(part)) continue;
    if (part.type === "text" && typeof part.text === "string" && part.text) {
      pieces.push({ type: "content", text: part.text });
    } else if (part.type === "thinking" || part.type === "reasoning") {
      const text = thinkingText(part.thinking ?? part.text ?? part.content);
      if (text) pieces.push({ type: "reasoning", text });
    }
  }
  return pieces;
}

/**
 * Reads one parsed `data:` payload: reasoning from `reasoning_content` (DeepSeek, vLLM, SGLang) or
 * `reasoning` (OpenRouter, Groq), content as text or parts, usage from `usage`, `x_groq.usage` or
 * llama.cpp's `timings`, and an in-stream `error` object.
 */
export function readWireChunk(payload: unknown): WireChunk {
  const out: WireChunk = { pieces: [], finished: false };
  if (!isObject(payload)) return out;
  if (isObject(payload.error)) out.error = payload.error;
  const choices = Array.isArray(payload.choices) ? payload.choices : [];
  for (const choice of choices) {
    if (!isObject(choice)) continue;
    const delta = isObject(choice.delta)
      ? choice.delta
      : isObject(choice.message)
        ? choice.message
        : {};
    // Some servers send both fields with the same text: one of them is the reasoning.
    const reasoning =
      typeof delta.reasoning_content === "string" && delta.reasoning_content
        ? delta.reasoning_content
        : typeof delta.reasoning === "string"
          ? delta.reasoning
          : "";
    if (reasoning) out.pieces.push({ type: "reasoning", text: reasoning });
    out.pieces.push(...contentPieces(delta.content));
    if (typeof choice.finish_reason === "string" && choice.finish_reason) out.finished = true;
  }
  const groq = isObject(payload.x_groq) ? usageOf(payload.x_groq.usage) : undefined;
  const usage = usageOf(payload.usage) ?? groq;
  if (usage) out.usage = usage;
  const timings = isObject(payload.timings) ? TimingsSchema.safeParse(payload.timings) : undefined;
  if (timings?.success) {
    out.timingsUsage = {
      promptTokens: timings.data.prompt_n,
      completionTokens: timings.data.predicted_n,
      estimated: false,
    };
  }
  return out;
}
