/**
 * The fixture files of the agreement suite: which public grader each one transcribes, at which
 * commit, and which of our scorers it measures. Figures per source are in `figures.ts`.
 */

export interface AgreementSource {
  /** The fixture file in this folder, without `.jsonl`. */
  file: string;
  repo: string;
  commit: string;
  /** What the reference grader is, in a few words. */
  grader: string;
  scorer: "math" | "mc";
  /**
   * For multiple choice, the cascade that matches the reference grader's contract: "strict" for
   * graders that read only an "Answer: X" line, "lenient" for those that find a letter anywhere.
   */
  mode?: "strict" | "lenient";
}

export const SOURCES: AgreementSource[] = [
  {
    file: "math-verify",
    repo: "huggingface/Math-Verify",
    commit: "5d148cfaaf99214c2e4ffb4bc497ab042c592a7a",
    grader:
      "parse + verify (tests/test_all.py, test_boxed, test_numina_cases, test_open_thoughts, test_strict, test_yujianll)",
    scorer: "math",
  },
  {
    file: "hendrycks-math",
    repo: "hendrycks/math",
    commit: "985bdc1696e88e8643f081a0ff4719da39f2ae2a",
    grader: "is_equiv (modeling/math_equivalence_test.py)",
    scorer: "math",
  },
  {
    file: "nemo-skills",
    repo: "NVIDIA/NeMo-Skills",
    commit: "0b012df8a09cd4730d31b16e90a0d8f13d145fb8",
    grader: "math_equal, asserted both ways round (tests/test_math_equal.py)",
    scorer: "math",
  },
  {
    file: "inspect-math",
    repo: "UKGovernmentBEIS/inspect_ai",
    commit: "499e6152e7b8fc8cbd8ac5283536572aa6e4ab17",
    grader: "the math() scorer's compatibility cases (tests/scorer/math_cases.json)",
    scorer: "math",
  },
  {
    file: "lighteval-math",
    repo: "huggingface/lighteval",
    commit: "3fd15266bc8448b797e61462d293aa3fd40b3580",
    grader:
      "extractive match, the cases not already in Math-Verify (tests/unit/metrics/test_extractive_match.py)",
    scorer: "math",
  },

  {
    file: "simple-evals-math",
    repo: "openai/simple-evals",
    commit: "ee3b0318d8d1d9d72755a4120879be65f7c07e9e",
    grader: "the worked examples of its equality checker's prompt, EQUALITY_TEMPLATE (common.py)",
    scorer: "math",
  },
  {
    file: "simple-evals-mc",
    repo: "openai/simple-evals",
    commit: "ee3b0318d8d1d9d72755a4120879be65f7c07e9e",
    grader:
      "MMLU's multilingual and GPQA's answer patterns (common.py), run on each reply to get the verdict",
    scorer: "mc",
    mode: "strict",
  },
  {
    file: "inspect-mc",
    repo: "UKGovernmentBEIS/inspect_ai",
    commit: "499e6152e7b8fc8cbd8ac5283536572aa6e4ab17",
    grader: 'answer("letter") and choice() (tests/scorer/test_answer.py, test_choice.py)',
    scorer: "mc",
    mode: "strict",
  },
  {
    file: "lighteval-mc",
    repo: "huggingface/lighteval",
    commit: "3fd15266bc8448b797e61462d293aa3fd40b3580",
    grader:
      "IndicesExtractionConfig, letters with and without an anchor (test_extractive_match.py)",
    scorer: "mc",
    mode: "lenient",
  },
  {
    file: "math-verify-mc",
    repo: "huggingface/Math-Verify",
    commit: "5d148cfaaf99214c2e4ffb4bc497ab042c592a7a",
    grader: "StringExtractionConfig (tests/test_string_extraction.py)",
    scorer: "mc",
    mode: "lenient",
  },
];
