import type { HfSource } from "./hf.ts";
import type { SourceRow } from "./parse.ts";
import type { ColumnMapping } from "./schema.ts";

/**
 * A benchmark as a one-click Hugging Face source: where its rows are, how its columns map, which
 * scorer and answer-format instruction it takes, and the revision it is pinned to (null: pinned
 * at the first read, whose commit the evaluation records; re-reads then refuse a moved dataset).
 */
export interface BenchmarkPreset {
  id: string;
  name: string;
  source: HfSource;
  mapping: ColumnMapping;
  scorer: "math" | "mc" | "contains" | "exact";
  instruction: string;
  revision: string | null;
  /** The reference is a worked solution ending in "#### 42" (GSM8K): only what follows counts. */
  referenceAfter?: string;
  note: string;
}

const MATH =
  'End your reply with a line "Answer: <value>" giving only the final number or expression.';
const LETTER = 'End your reply with a line "Answer: X", where X is the letter of your choice.';
const SHORT = 'End your reply with a line "Answer: <a short answer>", a few words at most.';

/** The paper's evaluation sets and the automated-workflow papers' ones whose format fits. */
export const BENCHMARK_PRESETS: readonly BenchmarkPreset[] = [
  {
    id: "math-500",
    name: "MATH-500",
    source: {
      dataset: "HuggingFaceH4/MATH-500",
      config: "default",
      split: "test",
      offset: 0,
      length: 500,
    },
    mapping: { question: "problem", answer: "answer", id: "unique_id", category: "subject" },
    scorer: "math",
    instruction: MATH,
    revision: null,
    note: "500 competition problems (Lightman et al.); per-subject report.",
  },
  {
    id: "aime-2025",
    name: "AIME 2025 (I)",
    source: {
      dataset: "opencompass/AIME2025",
      config: "AIME2025-I",
      split: "test",
      offset: 0,
      length: 15,
    },
    mapping: { question: "question", answer: "answer" },
    scorer: "math",
    instruction: MATH,
    revision: null,
    note: "15 problems of AIME 2025 I; choose config AIME2025-II for the other 15.",
  },
  {
    id: "gsm8k",
    name: "GSM8K",
    source: { dataset: "openai/gsm8k", config: "main", split: "test", offset: 0, length: 1319 },
    mapping: { question: "question", answer: "answer" },
    scorer: "math",
    instruction: MATH,
    revision: null,
    referenceAfter: "####",
    note: "Grade-school word problems; the reference is what follows the solution's ####.",
  },
  {
    id: "mmlu",
    name: "MMLU",
    source: { dataset: "cais/mmlu", config: "all", split: "test", offset: 0, length: 1000 },
    mapping: { question: "question", answer: "answer", choices: "choices", category: "subject" },
    scorer: "mc",
    instruction: LETTER,
    revision: null,
    note: "57 subjects, four options (answer given as the option's index); per-subject report.",
  },
  {
    id: "hotpotqa",
    name: "HotpotQA (closed book)",
    source: {
      dataset: "hotpotqa/hotpot_qa",
      config: "distractor",
      split: "validation",
      offset: 0,
      length: 500,
    },
    mapping: { question: "question", answer: "answer", id: "id", category: "level" },
    scorer: "contains",
    instruction: SHORT,
    revision: null,
    note: "Multi-hop questions without their passages (closed book); per-level report.",
  },
];

/**
 * A preset's rows as the mapping reads them: with `referenceAfter`, the answer column keeps only
 * what follows the marker's last occurrence (a row without the marker keeps its text).
 */
export function presetRows(preset: BenchmarkPreset, rows: readonly SourceRow[]): SourceRow[] {
  const marker = preset.referenceAfter;
  const column = preset.mapping.answer;
  if (!marker || !column) return [...rows];
  return rows.map((r) => {
    const v = r.values[column];
    if (typeof v !== "string" || !v.includes(marker)) return r;
    return {
      ...r,
      values: { ...r.values, [column]: v.slice(v.lastIndexOf(marker) + marker.length).trim() },
    };
  });
}
