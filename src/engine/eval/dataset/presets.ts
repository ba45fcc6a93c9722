import type { MathProfile } from "../scorers/math-profiles.ts";
import { z } from "zod";
import type { HfSource } from "./hf.ts";
import type { SourceRow } from "./parse.ts";
import type { ColumnMapping } from "./schema.ts";

/**
 * How a preset's rows are reshaped before the column mapping reads them:
 * - `final_answer_after_hashes`: the reference is a worked solution ending in "#### 42" (GSM8K);
 *   only what follows the last "####" counts;
 * - `drop_passage_answers`: DROP's question is its passage and question together (lighteval's
 *   "Passage: ...\nQuestion: ..."), and the reference lists every accepted answer (the gold one and
 *   the validated ones, each a number, its spans joined by ", ", or a date), " | " between them,
 *   as the `contains` scorer reads alternatives.
 */
export const PresetReshapeSchema = z.enum(["final_answer_after_hashes", "drop_passage_answers"]);
export type PresetReshape = z.infer<typeof PresetReshapeSchema>;

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
  /** The math grader profile the benchmark's paper reports with (absent: default). */
  profile?: MathProfile;
  instruction: string;
  revision: string | null;
  reshape?: PresetReshape;
  note: string;
}

const MATH =
  'End your reply with a line "Answer: <value>" giving only the final number or expression.';
const LETTER = 'End your reply with a line "Answer: X", where X is the letter of your choice.';
const SHORT = 'End your reply with a line "Answer: <a short answer>", a few words at most.';

/**
 * The paper's evaluation sets and the automated-workflow papers' ones whose format fits. Each
 * names the reference code it was checked against (dataset id, config, split, columns). None of
 * those sources pins these datasets to a commit, so every preset is pinned at its first read.
 */
export const BENCHMARK_PRESETS: readonly BenchmarkPreset[] = [
  {
    // lighteval src/lighteval/tasks/tasks/math_500.py (hf_repo HuggingFaceH4/MATH-500, subset
    // default, split test; record["problem"], record["answer"]).
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
    // lighteval src/lighteval/tasks/tasks/aime.py (aime25: hf_repo yentinglin/aime_2025, subset
    // default, split train; record["problem"], record["answer"]).
    id: "aime-2025",
    name: "AIME 2025",
    source: {
      dataset: "yentinglin/aime_2025",
      config: "default",
      split: "train",
      offset: 0,
      length: 30,
    },
    mapping: { question: "problem", answer: "answer" },
    scorer: "math",
    instruction: MATH,
    revision: null,
    note: "The 30 problems of AIME 2025 I and II (integer answers 0 to 999).",
  },
  {
    // lighteval src/lighteval/tasks/tasks/gsm8k.py and lm-evaluation-harness
    // lm_eval/tasks/gsm8k/gsm8k.yaml (openai/gsm8k, main, test; the target after "#### ").
    id: "gsm8k",
    name: "GSM8K",
    source: { dataset: "openai/gsm8k", config: "main", split: "test", offset: 0, length: 1319 },
    mapping: { question: "question", answer: "answer" },
    scorer: "math",
    instruction: MATH,
    revision: null,
    reshape: "final_answer_after_hashes",
    note: "Grade-school word problems; the reference is what follows the solution's ####.",
  },
  {
    // lm-evaluation-harness lm_eval/tasks/mmlu/default/_default_template_yaml (cais/mmlu, test;
    // question, choices[0..3], answer the option's index); "all" is cais/mmlu's every-subject config.
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
    // Not in the reference harnesses checked (lighteval, simple-evals, lm-evaluation-harness); the
    // id, config, split and columns (id, question, answer, type, level) are the dataset card's.
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
  {
    // lighteval src/lighteval/tasks/tasks/drop_qa.py (hf_repo lighteval/drop_harness, subset
    // default, split validation; passage, question, answer and validated_answers parsed as there).
    id: "drop",
    name: "DROP",
    source: {
      dataset: "lighteval/drop_harness",
      config: "default",
      split: "validation",
      offset: 0,
      length: 500,
    },
    mapping: { question: "question", answer: "answer", id: "query_id" },
    scorer: "contains",
    instruction: SHORT,
    revision: null,
    reshape: "drop_passage_answers",
    note: "Reading comprehension with arithmetic over a passage; right when the reply's answer contains an accepted answer (the field reports exact match and F1).",
  },
];

/**
 * Benchmarks the issue asks for that no preset offers, and why: a preset that ran them with the
 * project's scorers would not grade what their reference code grades.
 */
export const UNOFFERED_BENCHMARKS: readonly { name: string; dataset: string; why: string }[] = [
  {
    name: "GPQA-Diamond",
    dataset: "Idavidrein/gpqa (gpqa_diamond, train)",
    why: "gated on the Hub: the public rows API answers only with a token of an account that accepted its terms, which the loader does not send",
  },
  {
    name: "HumanEval",
    dataset: "openai/openai_humaneval (test)",
    why: "its tests are a Python program (def check(candidate): assert ...), not stdio or function cases",
  },
  {
    name: "MBPP",
    dataset: "google-research-datasets/mbpp (full, test)",
    why: "its tests are Python assert statements (test_list), not stdio or function cases",
  },
  {
    name: "LiveCodeBench",
    dataset: "lighteval/code_generation_lite (v4_v5, test)",
    why: "its private tests are a base64 zlib pickle; the public ones alone would grade more leniently than the benchmark",
  },
  {
    name: "BigCodeBench",
    dataset: "bigcode/bigcodebench",
    why: "its tests are unittest classes that import third-party libraries the Pyodide sandbox does not load",
  },
];

const text = (v: unknown): string =>
  typeof v === "string" ? v : typeof v === "number" ? String(v) : "";

// DROP's answer cells, read tolerantly: a field of the wrong type counts as empty.
const DropDateSchema = z
  .object({ day: z.string().catch(""), month: z.string().catch(""), year: z.string().catch("") })
  .catch({ day: "", month: "", year: "" });
const DropAnswerSchema = z
  .object({
    number: z.union([z.string(), z.number()]).catch(""),
    spans: z.array(z.string()).catch([]),
    date: DropDateSchema,
  })
  .catch({ number: "", spans: [], date: { day: "", month: "", year: "" } });
const DropValidatedSchema = z
  .object({
    number: z.array(z.unknown()).catch([]),
    date: z.array(z.unknown()).catch([]),
    spans: z.array(z.unknown()).catch([]),
  })
  .catch({ number: [], date: [], spans: [] });

/** A DROP answer as lighteval's parse_answer reads it: the number, else the spans, else the date. */
function dropAnswer(cell: unknown): string {
  const a = DropAnswerSchema.parse(cell);
  if (text(a.number) !== "") return text(a.number);
  if (a.spans.length) return a.spans.join(", ");
  return [a.date.day, a.date.month, a.date.year].join(" ").trim();
}

/** DROP's validated answers are columns of lists; one answer per index, as lighteval flattens them. */
function dropValidated(cell: unknown): string[] {
  const v = DropValidatedSchema.parse(cell);
  return v.number.map((number, i) => dropAnswer({ number, date: v.date[i], spans: v.spans[i] }));
}

function reshapeRow(reshape: PresetReshape, preset: BenchmarkPreset, r: SourceRow): SourceRow {
  const v = r.values;
  const answerColumn = preset.mapping.answer ?? "answer";
  switch (reshape) {
    case "final_answer_after_hashes": {
      const a = v[answerColumn];
      if (typeof a !== "string" || !a.includes("####")) return r;
      const after = a.slice(a.lastIndexOf("####") + 4).trim();
      return { ...r, values: { ...v, [answerColumn]: after } };
    }
    case "drop_passage_answers": {
      const answers = [dropAnswer(v.answer), ...dropValidated(v.validated_answers)];
      const distinct = [...new Set(answers.filter(Boolean))];
      const [passage, asked] = [text(v.passage).trim(), text(v.question).trim()];
      // Without its passage or its question a row cannot be posed: an empty question marks it bad.
      const question = passage && asked ? `Passage: ${passage}\nQuestion: ${asked}` : "";
      return {
        ...r,
        values: { ...v, [preset.mapping.question]: question, [answerColumn]: distinct.join(" | ") },
      };
    }
  }
}

/** A preset's rows as its mapping reads them (reshaped as `reshape` says; else unchanged). */
export function presetRows(preset: BenchmarkPreset, rows: readonly SourceRow[]): SourceRow[] {
  const reshape = preset.reshape;
  if (!reshape) return [...rows];
  return rows.map((r) => reshapeRow(reshape, preset, r));
}
