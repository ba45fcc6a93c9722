/**
 * GGUF Conductors to offer by URL: Qwen2.5-7B-Instruct (the Conductor's base model) and smaller
 * Qwen2.5 builds, Q4_K_M. Data only: nothing is fetched until the user loads one. A split model is
 * named by its first file; the rest load too.
 *
 * The sizes are approximate, and the studio says so (`sizeVerified`): Qwen's own listings for these
 * files could not be read when they were written. What could be checked (2026-12, through public
 * mirrors of the Hub's file pages):
 * - Qwen/Qwen2.5-7B-Instruct-GGUF names its files in lower case, split files as
 *   `qwen2.5-7b-instruct-q8_0-00001-of-00003.gguf` (ai.gitee.com/hf-models/Qwen/Qwen2.5-7B-Instruct-GGUF,
 *   files qwen2.5-7b-instruct-q3_k_m.gguf 3.55 GB, q2_k 2.81 GB), the pattern the URLs below follow;
 * - other quantisers' Q4_K_M of the same models: 7B 4.68 GB, 3B 1.93 GB, 1.5B 986 MB, 0.5B 398 MB
 *   (huggingface.co/bartowski/Qwen2.5-{7B,3B,1.5B,0.5B}-Instruct-GGUF), and a copy of Qwen's own
 *   qwen2.5-1.5b-instruct-q4_k_m.gguf at 1.12 GB (huggingface.co/flyingfishinwater/good_and_small_models).
 * Qwen's own quantisations keep some tensors at higher precision, so theirs are larger than those.
 */
export interface GgufCatalogueEntry {
  id: string;
  label: string;
  url: string;
  /** Download size in MB (all files of a split model together). */
  downloadMB: number;
  /** Whether `downloadMB` was checked against the Hub's listing (otherwise shown as approximate). */
  sizeVerified?: boolean;
  isDefault?: boolean;
}

const HUB = "https://huggingface.co/Qwen";

export const GGUF_CATALOGUE: readonly GgufCatalogueEntry[] = [
  {
    id: "qwen2.5-7b-instruct-q4_k_m",
    label: "Qwen2.5-7B-Instruct Q4_K_M (2 files)",
    url: `${HUB}/Qwen2.5-7B-Instruct-GGUF/resolve/main/qwen2.5-7b-instruct-q4_k_m-00001-of-00002.gguf`,
    downloadMB: 4680,
    isDefault: true,
  },
  {
    id: "qwen2.5-3b-instruct-q4_k_m",
    label: "Qwen2.5-3B-Instruct Q4_K_M",
    url: `${HUB}/Qwen2.5-3B-Instruct-GGUF/resolve/main/qwen2.5-3b-instruct-q4_k_m.gguf`,
    downloadMB: 2100,
  },
  {
    id: "qwen2.5-1.5b-instruct-q4_k_m",
    label: "Qwen2.5-1.5B-Instruct Q4_K_M",
    url: `${HUB}/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf`,
    downloadMB: 1120,
  },
  {
    id: "qwen2.5-0.5b-instruct-q4_k_m",
    label: "Qwen2.5-0.5B-Instruct Q4_K_M",
    url: `${HUB}/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf`,
    downloadMB: 491,
  },
];

/** A model's name from its URL or file name: the file without `.gguf` and a split suffix. */
export function ggufName(urlOrFile: string): string {
  const file = urlOrFile.split(/[?#]/)[0]!.split("/").pop() ?? urlOrFile;
  return file.replace(/(-\d{5}-of-\d{5})?\.gguf$/i, "");
}
