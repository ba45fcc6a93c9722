import type { MathProfile } from "../scorers/math-profiles.ts";
import { z } from "zod";
import type { HfSource } from "./hf.ts";
import type { ColumnMapping } from "./item-schema.ts";

/**
 * How a preset's rows are reshaped before the column mapping reads them:
 * - `final_answer_after_hashes`: the reference is a worked solution ending in "#### 42" (GSM8K);
 *   only what follows the last "####" counts;
 * - `drop_passage_answers`: DROP's question is its passage and question together (lighteval's
 *   "Passage: ...\nQuestion: ..."), and the reference lists every accepted answer (the gold one and
 *   the validated ones, each a number, its spans joined by ", ", or a date), " | " between them,
 *   as the `contains` scorer reads alternatives;
 * - `gpqa_choices`: GPQA's four answer columns become the options, the correct one first (the
 *   evaluation's recorded seed shuffles them per item, as simple-evals shuffles with its own);
 * - `livecodebench_tests`: LiveCodeBench's public and private tests (livecodebench.ts);
 * - `humanevalplus_tests`, `mbppplus_tests`: EvalPlus's rows, cases read from their test program
 *   and expected values from their canonical solution (evalplus-rows.ts);
 * - `humaneval_asserts`, `mbpp_asserts`: plain HumanEval's and MBPP's assert programs, run apart
 *   from the answer through the assert proxy (assert-rows.ts).
 */
export const PresetReshapeSchema = z.enum([
  "final_answer_after_hashes",
  "drop_passage_answers",
  "gpqa_choices",
  "livecodebench_tests",
  "humanevalplus_tests",
  "mbppplus_tests",
  "humaneval_asserts",
  "mbpp_asserts",
]);
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
  scorer: "math" | "mc" | "contains" | "exact" | "code";
  /** The math grader profile the benchmark's paper reports with (absent: default). */
  profile?: MathProfile;
  instruction: string;
  revision: string | null;
  reshape?: PresetReshape;
  /** The Hub refuses rows without a token of an account that accepted the dataset's terms. */
  gated?: boolean;
  /** The reference implementation whose reading of the dataset this preset follows. */
  reference: string;
  note: string;
}

const MATH =
  'End your reply with a line "Answer: <value>" giving only the final number or expression.';
const LETTER = 'End your reply with a line "Answer: X", where X is the letter of your choice.';
const SHORT = 'End your reply with a line "Answer: <a short answer>", a few words at most.';
const CODE = "Reply with the complete Python program in one ```python fenced code block.";
const FUNCTION =
  "Reply with the complete Python function, with its imports and any helper it needs, in one ```python fenced code block.";

/** What the four function-writing presets share: tests read from their rows, run by the code scorer. */
const FUNCTION_PRESET = {
  mapping: { question: "question", tests: "tests", id: "id" },
  scorer: "code",
  instruction: FUNCTION,
  revision: null,
} as const satisfies Pick<BenchmarkPreset, "mapping" | "scorer" | "instruction" | "revision">;

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
    reference: "lighteval tasks/math_500.py",
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
    reference: "lighteval tasks/aime.py (aime25)",
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
    reference: "lighteval tasks/gsm8k.py; lm-evaluation-harness gsm8k.yaml",
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
    reference: "lm-evaluation-harness tasks/mmlu",
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
    reference: "the dataset card (no reference harness reads it closed book)",
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
    reference: "lighteval tasks/drop_qa.py",
    note: "Reading comprehension with arithmetic over a passage; right when the reply's answer contains an accepted answer (the field reports exact match and F1).",
  },
  {
    // simple-evals gpqa_eval.py (Idavidrein/gpqa, gpqa_diamond, train; "Question", "Correct
    // Answer", "Incorrect Answer 1..3"; options permuted with a seeded random, answer the letter).
    id: "gpqa-diamond",
    name: "GPQA-Diamond",
    source: {
      dataset: "Idavidrein/gpqa",
      config: "gpqa_diamond",
      split: "train",
      offset: 0,
      length: 198,
    },
    mapping: {
      question: "Question",
      answer: "answer",
      choices: "choices",
      id: "Record ID",
      category: "High-level domain",
    },
    scorer: "mc",
    instruction: LETTER,
    revision: null,
    reshape: "gpqa_choices",
    gated: true,
    reference: "simple-evals gpqa_eval.py",
    note: "198 graduate-level science questions, four options shuffled with the evaluation's seed; gated: needs a Hugging Face token.",
  },
  {
    // LiveCodeBench lcb_runner/benchmarks/code_generation.py (livecodebench/code_generation_lite,
    // release_v6, test): public and private tests, stdin and functional, graded as
    // lcb_runner/evaluation/testing_util.py grades them.
    id: "livecodebench",
    name: "LiveCodeBench",
    source: {
      dataset: "livecodebench/code_generation_lite",
      config: "release_v6",
      split: "test",
      offset: 0,
      length: 1055,
    },
    mapping: { question: "question", tests: "tests", id: "question_id", category: "difficulty" },
    scorer: "code",
    instruction: CODE,
    revision: null,
    reshape: "livecodebench_tests",
    reference: "LiveCodeBench lcb_runner (code_generation.py, testing_util.py)",
    note: "Contest problems with public and private tests (stdin and LeetCode-style); choose a release and a contest-date window.",
  },
  {
    // EvalPlus evalplus/evaluate.py and tools/humaneval/to_original_fmt.py (evalplus/humanevalplus,
    // default, test; task_id, prompt, canonical_solution, entry_point, test): cases are the test
    // program's inputs, expected values the canonical solution's, compared as unsafe_execute does.
    id: "humanevalplus",
    name: "HumanEval+",
    source: {
      dataset: "evalplus/humanevalplus",
      config: "default",
      split: "test",
      offset: 0,
      length: 164,
    },
    ...FUNCTION_PRESET,
    reshape: "humanevalplus_tests",
    reference: "EvalPlus evaluate.py (get_groundtruth, unsafe_execute)",
    note: "HumanEval's 164 functions with EvalPlus's added inputs; expected values from the canonical solution, floats within its tolerance.",
  },
  {
    // EvalPlus evalplus/evaluate.py and tools/mbpp/to_original_fmt.py (evalplus/mbppplus, default,
    // test; task_id, prompt, code, test_list, test), with its special oracles (_special_oracle.py).
    id: "mbppplus",
    name: "MBPP+",
    source: {
      dataset: "evalplus/mbppplus",
      config: "default",
      split: "test",
      offset: 0,
      length: 378,
    },
    ...FUNCTION_PRESET,
    reshape: "mbppplus_tests",
    reference: "EvalPlus evaluate.py (get_groundtruth, unsafe_execute, _special_oracle.py)",
    note: "MBPP's sanitized tasks with EvalPlus's added inputs; the prompt shows the first assert, which names the function.",
  },
  {
    // human-eval human_eval/execution.py (openai/openai_humaneval, openai_humaneval, test;
    // prompt, test, entry_point): the program is test + check(entry_point), run by the proxy.
    id: "humaneval",
    name: "HumanEval",
    source: {
      dataset: "openai/openai_humaneval",
      config: "openai_humaneval",
      split: "test",
      offset: 0,
      length: 164,
    },
    ...FUNCTION_PRESET,
    reshape: "humaneval_asserts",
    reference: "human-eval execution.py (check(candidate))",
    note: "HumanEval's own assert tests, run in an interpreter apart from the answer's (the assert proxy).",
  },
  {
    // lm-evaluation-harness lm_eval/tasks/mbpp/mbpp.yaml (google-research-datasets/mbpp, full,
    // test; text, test_list, test_setup_code): the asserts shown and then run by the proxy.
    id: "mbpp",
    name: "MBPP",
    source: {
      dataset: "google-research-datasets/mbpp",
      config: "full",
      split: "test",
      offset: 0,
      length: 500,
    },
    ...FUNCTION_PRESET,
    reshape: "mbpp_asserts",
    reference: "lm-evaluation-harness tasks/mbpp",
    note: "MBPP's 500 test tasks; its three asserts are shown and run apart from the answer (the assert proxy).",
  },
];

/**
 * Benchmarks the issue asks for that no preset offers, and why: a preset that ran them with the
 * project's scorers would not grade what their reference code grades.
 */
export const UNOFFERED_BENCHMARKS: readonly { name: string; dataset: string; why: string }[] = [
  {
    name: "BigCodeBench",
    dataset: "bigcode/bigcodebench",
    why: "its tests are unittest classes that import third-party libraries the Pyodide sandbox does not load",
  },
];
