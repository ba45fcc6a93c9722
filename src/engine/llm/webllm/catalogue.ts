/**
 * The in-browser model catalogue (docs/protocol.md §2): the Conductor's base model, its q4f32 twin
 * and smaller Qwen2.5 models, (custom records for a user's own conversion live in custom.ts).
 *
 * The page must not load WebLLM (about 6 MB) up front, so the catalogue carries a snapshot of the
 * records of WebLLM's `prebuiltAppConfig` for the installed version; `buildCatalogue` prefers the
 * live records when the caller has loaded WebLLM. A unit test keeps the snapshot equal to them.
 */
import type { WebGpuProbe } from "./probe.ts";

export type Quantisation = "q4f16_1" | "q4f32_1";

/** The fields of WebLLM's `ModelRecord` that the studio reads or writes. */
export interface ModelRecordLike {
  model: string;
  model_id: string;
  model_lib: string;
  vram_required_MB?: number;
  low_resource_required?: boolean;
  required_features?: string[];
  overrides?: { context_window_size?: number };
}

/** The part of WebLLM's `AppConfig` the catalogue reads. */
export interface AppConfigLike {
  model_list: readonly ModelRecordLike[];
}

export interface CatalogueModel {
  id: string;
  /** e.g. "Qwen2.5 7B Instruct (q4f16)". */
  label: string;
  /** Parameter count in billions. */
  paramsB: number;
  quantisation: Quantisation;
  /** GPU memory WebLLM reports it needs, in MB. */
  vramMB: number;
  /** Approximate download size in MB (see DOWNLOAD_MB). */
  downloadMB: number;
  /** The context window of WebLLM's record (what `vramMB` is measured at). */
  contextWindow: number;
  /** The window the studio loads it with by default: 8,192 for the 7B, the record's otherwise. */
  defaultContextWindow: number;
  /** GPU memory the KV cache takes per token, in KB (grows with the window). */
  kvKBPerToken: number;
  modelUrl: string;
  modelLib: string;
  lowResource: boolean;
  isDefault: boolean;
}

/** The WebLLM model-library version the snapshot below was taken from (`modelVersion`). */
export const WEBLLM_LIB_VERSION = "v0_2_86/base";
export const WEBLLM_LIB_PREFIX = `https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/${WEBLLM_LIB_VERSION}/`;
const HF = "https://huggingface.co/mlc-ai/";

/** The Conductor's base model (the paper's Conductor is a GRPO fine-tune of it). */
export const DEFAULT_MODEL_ID = "Qwen2.5-7B-Instruct-q4f16_1-MLC";
/** The smallest catalogue build, preselected on a software adapter. */
const SMALLEST_ID = "Qwen2.5-0.5B-Instruct-q4f16_1-MLC";

/**
 * `kv` is the model's KV-cache values per token (2 x layers x KV heads x head size, from the
 * Qwen2.5 configs: 7B 28 x 4 x 128, 3B 36 x 2 x 128, 1.5B 28 x 2 x 128, 0.5B 24 x 2 x 64); each
 * takes 2 bytes in q4f16 builds and 4 in q4f32 ones.
 */
const SIZES = [
  { params: "7B", paramsB: 7.6, lib: "Qwen2-7B", kv: 28_672, context: 8192 },
  { params: "3B", paramsB: 3.1, lib: "Qwen2.5-3B", kv: 18_432, context: 4096 },
  { params: "1.5B", paramsB: 1.5, lib: "Qwen2-1.5B", kv: 14_336, context: 4096 },
  { params: "0.5B", paramsB: 0.5, lib: "Qwen2-0.5B", kv: 6_144, context: 4096 },
] as const;

/** The context windows the settings offer. */
export const CONTEXT_WINDOWS = [4096, 8192, 16_384, 32_768] as const;

/** GPU memory in MB for `model` loaded with a `window`-token context (the KV cache scales with it). */
export function vramAtContext(model: CatalogueModel, window: number): number {
  return Math.round(model.vramMB + ((window - model.contextWindow) * model.kvKBPerToken) / 1024);
}

/**
 * Approximate download sizes in MB: parameters times about 4.5 bits per weight for q4f16_1 (4-bit
 * weights, f16 scales per group of 32) and about 5 bits for q4f32_1 (f32 scales), rounded; within
 * roughly 10% of the Hugging Face repositories. The real total appears in the download progress.
 */
export const DOWNLOAD_MB: Record<string, number> = {
  "Qwen2.5-7B-Instruct-q4f16_1-MLC": 4300,
  "Qwen2.5-7B-Instruct-q4f32_1-MLC": 4800,
  "Qwen2.5-3B-Instruct-q4f16_1-MLC": 1750,
  "Qwen2.5-3B-Instruct-q4f32_1-MLC": 1950,
  "Qwen2.5-1.5B-Instruct-q4f16_1-MLC": 870,
  "Qwen2.5-1.5B-Instruct-q4f32_1-MLC": 960,
  "Qwen2.5-0.5B-Instruct-q4f16_1-MLC": 280,
  "Qwen2.5-0.5B-Instruct-q4f32_1-MLC": 310,
};

/** `vram_required_MB` of WebLLM 0.2.86's prebuilt records. */
const SNAPSHOT_VRAM: Record<string, number> = {
  "Qwen2.5-7B-Instruct-q4f16_1-MLC": 5106.67,
  "Qwen2.5-7B-Instruct-q4f32_1-MLC": 5900.09,
  "Qwen2.5-3B-Instruct-q4f16_1-MLC": 2504.76,
  "Qwen2.5-3B-Instruct-q4f32_1-MLC": 2893.64,
  "Qwen2.5-1.5B-Instruct-q4f16_1-MLC": 1629.75,
  "Qwen2.5-1.5B-Instruct-q4f32_1-MLC": 1888.97,
  "Qwen2.5-0.5B-Instruct-q4f16_1-MLC": 944.62,
  "Qwen2.5-0.5B-Instruct-q4f32_1-MLC": 1060.2,
};

const QUANTS: readonly Quantisation[] = ["q4f16_1", "q4f32_1"];

/** The snapshot of the prebuilt records the catalogue uses, plus the Qwen2-7B library records. */
export const SNAPSHOT_RECORDS: readonly ModelRecordLike[] = [
  ...SIZES.flatMap(({ params, lib }) =>
    QUANTS.map((q) => {
      const id = `Qwen2.5-${params}-Instruct-${q}-MLC`;
      return {
        model: `${HF}${id}`,
        model_id: id,
        model_lib: `${WEBLLM_LIB_PREFIX}${lib}-Instruct-${q}_cs1k-webgpu.wasm`,
        vram_required_MB: SNAPSHOT_VRAM[id] ?? 0,
        low_resource_required: params !== "7B",
        overrides: { context_window_size: 4096 },
      };
    }),
  ),
  ...QUANTS.map((q) => ({
    model: `${HF}Qwen2-7B-Instruct-${q}-MLC`,
    model_id: `Qwen2-7B-Instruct-${q}-MLC`,
    model_lib: `${WEBLLM_LIB_PREFIX}Qwen2-7B-Instruct-${q}_cs1k-webgpu.wasm`,
    vram_required_MB: SNAPSHOT_VRAM[`Qwen2.5-7B-Instruct-${q}-MLC`] ?? 0,
    low_resource_required: false,
    overrides: { context_window_size: 4096 },
  })),
];

/** Catalogue ids, largest first; q4f16 before its q4f32 twin. */
export const CATALOGUE_IDS: readonly string[] = SIZES.flatMap(({ params }) =>
  QUANTS.map((q) => `Qwen2.5-${params}-Instruct-${q}-MLC`),
);

/** The quantisation named in a model id, if any. */
export function quantisationOf(id: string): Quantisation | undefined {
  return QUANTS.find((q) => id.includes(q));
}

/** The same model in the other quantisation (q4f16_1 <-> q4f32_1); undefined for other ids. */
export function twinOf(id: string): string | undefined {
  const q = quantisationOf(id);
  if (!q) return undefined;
  return id.replace(q, q === "q4f16_1" ? "q4f32_1" : "q4f16_1");
}

/** A record by id: from `config` where given and present, else from the snapshot. */
export function findRecord(id: string, config?: AppConfigLike): ModelRecordLike | undefined {
  return (
    config?.model_list.find((r) => r.model_id === id) ??
    SNAPSHOT_RECORDS.find((r) => r.model_id === id)
  );
}

/**
 * The catalogue, from WebLLM's live `prebuiltAppConfig` where the caller passes it (records it
 * lacks come from the snapshot), else from the snapshot alone.
 */
export function buildCatalogue(prebuilt?: AppConfigLike): CatalogueModel[] {
  return CATALOGUE_IDS.flatMap((id, i) => {
    const record = findRecord(id, prebuilt);
    const size = SIZES[Math.floor(i / 2)];
    const quantisation = quantisationOf(id);
    if (!record || !size || !quantisation) return [];
    return [
      {
        id,
        label: `Qwen2.5 ${size.params} Instruct (${quantisation.slice(0, 5)})`,
        paramsB: size.paramsB,
        quantisation,
        vramMB: Math.round(record.vram_required_MB ?? SNAPSHOT_VRAM[id] ?? 0),
        downloadMB: DOWNLOAD_MB[id] ?? 0,
        contextWindow: record.overrides?.context_window_size ?? 4096,
        defaultContextWindow: size.context,
        kvKBPerToken: (size.kv * (quantisation === "q4f32_1" ? 4 : 2)) / 1024,
        modelUrl: record.model,
        modelLib: record.model_lib,
        lowResource: record.low_resource_required ?? false,
        isDefault: id === DEFAULT_MODEL_ID,
      },
    ];
  });
}

/** The model to load and why, in words for the UI. */
export interface ModelChoice {
  id: string;
  /** Whether `id` differs from the preferred one. */
  changed: boolean;
  reason: string;
}

/**
 * Picks the build for this GPU: q4f16 where `shader-f16` exists, else the q4f32 twin. A custom
 * record keeps its id; a q4f16 one on a GPU without f16 gets a warning instead.
 */
export function chooseModel(
  probe: WebGpuProbe,
  preferredId: string = DEFAULT_MODEL_ID,
): ModelChoice {
  const q = quantisationOf(preferredId);
  // A software adapter runs the model on the CPU: the default 7B (4.3 to 4.8 GB) would crawl, so
  // the smallest build is preselected. A build the user picked (any other id) is kept.
  if (probe.software && preferredId === DEFAULT_MODEL_ID) {
    const id = probe.f16 ? SMALLEST_ID : twinOf(SMALLEST_ID)!;
    return {
      id,
      changed: true,
      reason: `The adapter is a software one (the CPU), so the smallest model (${id}, about ${DOWNLOAD_MB[id]} MB) is preselected instead of the 7B; pick another in the list if you must.`,
    };
  }
  const inCatalogue = CATALOGUE_IDS.includes(preferredId);
  const twin = twinOf(preferredId);
  const slow = probe.software
    ? " The adapter is a software one, so expect a few tokens a minute; a smaller model helps."
    : "";
  if (q === "q4f16_1" && !probe.f16) {
    if (inCatalogue && twin) {
      return {
        id: twin,
        changed: true,
        reason: `This GPU has no shader-f16, so the q4f32 build (${twin}) is used instead of ${preferredId}.${slow}`,
      };
    }
    return {
      id: preferredId,
      changed: false,
      reason: `${preferredId} is a q4f16 build, but this GPU has no shader-f16: it will fail to load. Convert the weights with q4f32_1 instead.${slow}`,
    };
  }
  if (q === "q4f32_1" && probe.f16 && inCatalogue && twin) {
    return {
      id: twin,
      changed: true,
      reason: `This GPU supports shader-f16, so the smaller and faster q4f16 build (${twin}) is used.${slow}`,
    };
  }
  const why = q === "q4f16_1" ? "this GPU supports shader-f16" : "it needs no shader-f16";
  return { id: preferredId, changed: false, reason: `${preferredId} is used: ${why}.${slow}` };
}

/**
 * The context window to load `id` with: the user's choice, else the catalogue default (8,192 for
 * the 7B), else the record's own (a custom conversion), else WebLLM's usual 4,096.
 */
export function contextWindowFor(
  id: string,
  chosen: number | null | undefined,
  records: readonly ModelRecordLike[] = [],
): number {
  if (chosen) return chosen;
  const model = buildCatalogue().find((m) => m.id === id);
  if (model) return model.defaultContextWindow;
  return records.find((r) => r.model_id === id)?.overrides?.context_window_size ?? 4096;
}
