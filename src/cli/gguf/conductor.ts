// `--conductor-gguf FILE`: the Conductor as a local GGUF model, run by llama.cpp (wllama) in this
// process on the CPU, with no server. Its plans are constrained by the plan grammar unless the
// config turns that off.
import { openAsBlob } from "node:fs";
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import type { GgufBackend } from "../../engine/llm/gguf/backend.ts";
import { createGgufBackend } from "../../engine/llm/gguf/backend.ts";
import { looksLikeGguf } from "../../engine/llm/gguf/gbnf.ts";
import { UsageError } from "../command.ts";
import type { ResolvedConfig } from "../config.ts";
import { nodeWllama } from "./node-wllama.ts";

/** The context the local Conductor is loaded with: the Conductor prompt and a plan fit in it. */
const CONTEXT = 8192;

/** The option both `run` and `eval` take. */
export const CONDUCTOR_GGUF_OPTION = {
  type: "string",
  arg: "FILE",
  description:
    "plan with a local GGUF Conductor (llama.cpp on the CPU, no server) instead of the config's endpoint; the first of split files loads the rest",
} as const;

/**
 * Loads `file` and returns the config with the Conductor replaced by it (an in-process model: no
 * endpoint, no key, no price; the plan grammar on unless the config says "off") and its backend.
 */
export async function ggufConductor(
  file: string,
  resolved: ResolvedConfig,
): Promise<{ resolved: ResolvedConfig; backend: GgufBackend }> {
  const size = await stat(file).then(
    (s) => s.size,
    () => -1,
  );
  if (size <= 0) throw new UsageError(`--conductor-gguf: cannot read ${file}.`);
  const blob = await openAsBlob(file);
  // llama.cpp in wllama reports no error for a file that is not GGUF; its first call then aborts.
  if (!looksLikeGguf(new Uint8Array(await blob.slice(0, 4).arrayBuffer())))
    throw new UsageError(`--conductor-gguf: ${file} is not a GGUF file.`);
  const wllama = await nodeWllama();
  try {
    await wllama.loadModel([blob], { n_ctx: CONTEXT, n_threads: 1 });
  } catch (e: unknown) {
    await wllama.exit().catch(() => undefined);
    const why = e instanceof Error ? e.message : String(e);
    throw new UsageError(`--conductor-gguf: llama.cpp could not load ${file} (${why}).`);
  }
  const backend = createGgufBackend(wllama, { modelId: basename(file), contextWindow: CONTEXT });
  return { backend, resolved: ggufResolved(file, resolved) };
}

/**
 * The config with the Conductor replaced by the GGUF model in `file`, without loading it: what
 * `eval` records in its definition before the model is needed.
 */
export function ggufResolved(file: string, resolved: ResolvedConfig): ResolvedConfig {
  const { conductor } = resolved;
  return {
    ...resolved,
    conductor: {
      kind: "webllm",
      baseURL: "",
      model: `gguf:${basename(file)}`,
      temperature: conductor.temperature,
      maxTokens: conductor.maxTokens,
      planGrammar: conductor.planGrammar === "off" ? "off" : "webllm",
    },
  };
}
