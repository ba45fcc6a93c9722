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
];
