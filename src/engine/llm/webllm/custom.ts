/**
 * Custom model records for a user's own MLC conversion of Conductor weights (docs/protocol.md §2):
 * the weights URL is checked against what WebLLM fetches from, and the model library defaults to
 * the prebuilt Qwen2-7B library of the installed WebLLM, which a Qwen2.5-7B fine-tune of the same
 * quantisation reuses.
 */
import type { Failure, Result } from "../../errors.ts";
import { failure } from "../../errors.ts";
import type { AppConfigLike, ModelRecordLike, Quantisation } from "./catalogue.ts";
import {
  CATALOGUE_IDS,
  WEBLLM_LIB_PREFIX,
  WEBLLM_LIB_VERSION,
  findRecord,
  quantisationOf,
} from "./catalogue.ts";

/** The prebuilt Qwen2-7B model library for a quantisation: a Qwen2.5-7B fine-tune reuses it. */
export function defaultModelLib(quantisation: Quantisation, prebuilt?: AppConfigLike): string {
  const record = findRecord(`Qwen2-7B-Instruct-${quantisation}-MLC`, prebuilt);
  return (
    record?.model_lib ?? `${WEBLLM_LIB_PREFIX}Qwen2-7B-Instruct-${quantisation}_cs1k-webgpu.wasm`
  );
}

export interface CustomModelInput {
  id: string;
  /** Where the MLC conversion lives: a Hugging Face repo or any folder served over http(s). */
  weightsUrl: string;
  /** A model library (.wasm) URL; defaults to the prebuilt Qwen2-7B library of the same quantisation. */
  modelLib?: string;
  vramMB?: number;
  contextWindow?: number;
}

export interface CustomModel {
  record: ModelRecordLike;
  quantisation: Quantisation | undefined;
  /** Things the user should know, e.g. that `resolve/main/` was added to the URL. */
  notes: string[];
}

const FILE_SUFFIX = /\.(json|bin|wasm|safetensors|model|txt)$/i;

type Fail = { ok: false } & Failure;
const fail = (code: Parameters<typeof failure>[0], detail: string): Fail => ({
  ok: false,
  ...failure(code, detail),
});

/**
 * WebLLM's `cleanModelUrl`: add a trailing slash, and `resolve/main/` unless the path already has a
 * `/resolve/<rev>/` segment. Files are then fetched relative to the result.
 */
export function cleanModelUrl(url: string): string {
  let u = url.endsWith("/") ? url : `${url}/`;
  if (!/.+\/resolve\/.+\//.test(u)) u += "resolve/main/";
  return new URL(u).href;
}

function checkWeightsUrl(raw: string): Result<{ model: string; notes: string[] }> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return fail(
      "invalid_model_url",
      `"${raw}" is not an absolute URL (it must start with https://).`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return fail("invalid_model_url", `${url.protocol} URLs are not fetched; use https://.`);
  }
  if (url.search || url.hash) {
    return fail(
      "invalid_model_url",
      "remove the ?query or #fragment: files are fetched relative to the folder.",
    );
  }
  const path = url.pathname;
  if (/\/(tree|blob)\//.test(path)) {
    return fail(
      "invalid_model_url",
      `that is a web page, not the files: use ${url.origin}${path.replace(/\/(tree|blob)\//, "/resolve/")}`,
    );
  }
  if (FILE_SUFFIX.test(path)) {
    return fail(
      "invalid_model_url",
      "point to the folder that holds mlc-chat-config.json, not to one file.",
    );
  }
  const parts = path.split("/").filter(Boolean);
  if (url.hostname === "huggingface.co") {
    const resolveAt = parts.indexOf("resolve");
    const repoOnly = parts.length === 2;
    const withRevision = resolveAt === 2 && parts.length >= 4;
    if (!repoOnly && !withRevision) {
      return fail(
        "invalid_model_url",
        "a Hugging Face URL must be https://huggingface.co/<org>/<repo> or .../resolve/<revision>/.",
      );
    }
  }
  const model = cleanModelUrl(url.href);
  const notes: string[] = [];
  if (model !== (url.href.endsWith("/") ? url.href : `${url.href}/`)) {
    notes.push(
      `WebLLM adds resolve/main/ to this URL and fetches mlc-chat-config.json, tensor-cache.json, the weight shards and tokenizer.json from ${model}`,
    );
  }
  return { ok: true, model, notes };
}

function checkModelLib(raw: string): Result<{ lib: string }> {
  try {
    const url = new URL(raw.trim());
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      return fail("invalid_model_lib", `${url.protocol} URLs are not fetched; use https://.`);
    }
    if (!url.pathname.endsWith(".wasm")) {
      return fail("invalid_model_lib", "a model library is a .wasm file compiled for WebGPU.");
    }
    return { ok: true, lib: url.href };
  } catch {
    return fail(
      "invalid_model_lib",
      `"${raw}" is not an absolute URL (it must start with https://).`,
    );
  }
}

/**
 * Validates a custom model record for the user's own MLC conversion and fills in the defaults: the
 * weights URL in the form WebLLM fetches from, and the prebuilt Qwen2-7B library of the same
 * quantisation as the id (q4f16_1 or q4f32_1) matching the installed WebLLM.
 */
export function customModelRecord(
  input: CustomModelInput,
  prebuilt?: AppConfigLike,
): Result<CustomModel> {
  const id = input.id.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) {
    return fail(
      "invalid_model_id",
      "use letters, digits, '.', '_' and '-' only, e.g. Conductor-7B-q4f16_1-MLC.",
    );
  }
  if (CATALOGUE_IDS.includes(id) || findRecord(id, prebuilt)) {
    return fail(
      "invalid_model_id",
      `${id} is already a prebuilt model; give the custom one its own id.`,
    );
  }
  const weights = checkWeightsUrl(input.weightsUrl);
  if (!weights.ok) return weights;
  const quantisation = quantisationOf(id);
  const notes = [...weights.notes];
  let lib: string;
  if (input.modelLib?.trim()) {
    const checked = checkModelLib(input.modelLib);
    if (!checked.ok) return checked;
    lib = checked.lib;
  } else if (quantisation) {
    lib = defaultModelLib(quantisation, prebuilt);
    notes.push(
      `Uses the prebuilt Qwen2-7B ${quantisation} library (${WEBLLM_LIB_VERSION}), which fits Qwen2.5-7B fine-tunes.`,
    );
  } else {
    return fail(
      "invalid_model_id",
      "name the quantisation in the id (…-q4f16_1-MLC or …-q4f32_1-MLC) so the matching library is used, or give a model library URL.",
    );
  }
  const twinVram = quantisation
    ? findRecord(`Qwen2.5-7B-Instruct-${quantisation}-MLC`, prebuilt)?.vram_required_MB
    : undefined;
  const record: ModelRecordLike = {
    model: weights.model,
    model_id: id,
    model_lib: lib,
    vram_required_MB: input.vramMB ?? twinVram,
    low_resource_required: false,
    overrides: { context_window_size: input.contextWindow ?? 4096 },
    // WebLLM then fails with a clear ShaderF16SupportError rather than a shader compile error.
    ...(quantisation === "q4f16_1" ? { required_features: ["shader-f16"] } : {}),
  };
  return { ok: true, record, quantisation, notes };
}
