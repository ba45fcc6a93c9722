/**
 * GGUF Conductors to offer by URL: Qwen2.5-7B-Instruct (the Conductor's base model) and smaller
 * Qwen2.5 builds, Q4_K_M, with their download sizes as the Hub lists them. Data only: nothing is
 * fetched until the user loads one. A split model is named by its first file; the rest load too.
 */
export interface GgufCatalogueEntry {
  id: string;
  label: string;
  url: string;
  /** Download size in MB (all files of a split model together). */
  downloadMB: number;
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
