// Test support for the benchmark presets: a fake Hugging Face Hub (its dataset API answers a sha, its
// rows API the fixtures below). No network to Hugging Face here, so the fixtures are documented-shape,
// not recorded: each /rows answer has the fields of the PaginatedResponse schema and the imdb example of
// huggingface/dataset-viewer's docs/source/openapi.json (features with feature_idx, name and a datasets
// feature type; rows with row_idx, row and truncated_cells; num_rows_total, num_rows_per_page, partial).
// The columns and types are each dataset's published ones; the values are made up.

const str = { dtype: "string", _type: "Value" };
const int = { dtype: "int64", _type: "Value" };
const strings = { feature: str, _type: "Sequence" };
const dropAnswerType = {
  number: str,
  date: { day: str, month: str, year: str },
  spans: strings,
};

export interface Fixture {
  features: Record<string, unknown>;
  rows: Record<string, unknown>[];
  total: number;
}

export const FIXTURES: Record<string, Fixture> = {
  "HuggingFaceH4/MATH-500": {
    features: {
      problem: str,
      solution: str,
      answer: str,
      subject: str,
      level: int,
      unique_id: str,
    },
    total: 500,
    rows: [
      {
        problem: "What is $1+1$?",
        solution: "$1+1=\\boxed{2}$",
        answer: "2",
        subject: "Prealgebra",
        level: 1,
        unique_id: "test/prealgebra/1.json",
      },
      {
        problem: "Solve $x^2=4$, $x>0$.",
        solution: "\\boxed{2}",
        answer: "2",
        subject: "Algebra",
        level: 2,
        unique_id: "test/algebra/7.json",
      },
    ],
  },
  "openai/gsm8k": {
    features: { question: str, answer: str },
    total: 1319,
    rows: [
      { question: "Ann has 3 apples and buys 4. How many?", answer: "3 + 4 = <<3+4=7>>7\n#### 7" },
      { question: "Tom reads 10 pages a day for 3 days. Pages?", answer: "10*3=30\n#### 30" },
    ],
  },
  "cais/mmlu": {
    features: {
      question: str,
      subject: str,
      choices: strings,
      answer: { names: ["A", "B", "C", "D"], _type: "ClassLabel" },
    },
    total: 14042,
    rows: [
      {
        question: "2 + 2 =",
        subject: "elementary_mathematics",
        choices: ["3", "4", "5", "6"],
        answer: 1,
      },
    ],
  },
  "hotpotqa/hotpot_qa": {
    features: { id: str, question: str, answer: str, type: str, level: str },
    total: 7405,
    rows: [
      {
        id: "5a8b57f25542995d1e6f1371",
        question: "Which city hosts the older university?",
        answer: "Bologna",
        type: "comparison",
        level: "hard",
      },
    ],
  },
  "yentinglin/aime_2025": {
    features: { problem: str, answer: str },
    total: 30,
    rows: [{ problem: "Find the remainder when 2025 is divided by 7.", answer: "2" }],
  },
  "Idavidrein/gpqa": {
    features: {
      "Record ID": str,
      Question: str,
      "Correct Answer": str,
      "Incorrect Answer 1": str,
      "Incorrect Answer 2": str,
      "Incorrect Answer 3": str,
      "High-level domain": str,
    },
    total: 198,
    rows: [
      {
        "Record ID": "rec1",
        Question: "Which particle mediates the electromagnetic force?",
        "Correct Answer": "The photon ",
        "Incorrect Answer 1": "The gluon",
        "Incorrect Answer 2": "The W boson",
        "Incorrect Answer 3": "The graviton",
        "High-level domain": "Physics",
      },
    ],
  },
  "livecodebench/code_generation_lite": {
    features: {
      question_title: str,
      question_content: str,
      platform: str,
      question_id: str,
      contest_id: str,
      contest_date: str,
      starter_code: str,
      difficulty: str,
      public_test_cases: str,
      private_test_cases: str,
      metadata: str,
    },
    total: 1055,
    rows: [
      {
        question_title: "Sum",
        question_content: "Read two integers and print their sum.",
        platform: "atcoder",
        question_id: "abc001_a",
        contest_id: "abc001",
        contest_date: "2025-02-01T00:00:00",
        starter_code: "",
        difficulty: "easy",
        public_test_cases: JSON.stringify([{ input: "1 2\n", output: "3\n", testtype: "stdin" }]),
        private_test_cases: JSON.stringify([{ input: "5 5\n", output: "10\n", testtype: "stdin" }]),
        metadata: "{}",
      },
    ],
  },
  // The four code sets' features as their dataset cards declare them (one row each).
  "evalplus/humanevalplus": {
    features: { task_id: str, prompt: str, canonical_solution: str, entry_point: str, test: str },
    total: 164,
    rows: [
      {
        task_id: "HumanEval/0",
        prompt: "def inc(x):\n",
        canonical_solution: "    return x + 1\n",
        entry_point: "inc",
        test: "def check(candidate):\n    inputs = [[1], [2]]\n    results = [2, 3]\n",
      },
    ],
  },
  "evalplus/mbppplus": {
    features: {
      task_id: int,
      code: str,
      prompt: str,
      source_file: str,
      test_imports: strings,
      test_list: strings,
      test: str,
    },
    total: 378,
    rows: [
      {
        task_id: 2,
        code: "def inc(x):\n    return x + 1",
        prompt: "Write a function to add one.",
        source_file: "x",
        test_imports: [],
        test_list: ["assert inc(1) == 2"],
        test: "inputs = [[1]]\nresults = [2]\n",
      },
    ],
  },
  "openai/openai_humaneval": {
    features: { task_id: str, prompt: str, canonical_solution: str, test: str, entry_point: str },
    total: 164,
    rows: [
      {
        task_id: "HumanEval/0",
        prompt: "def inc(x):\n",
        canonical_solution: "    return x + 1\n",
        test: "def check(candidate):\n    assert candidate(1) == 2\n",
        entry_point: "inc",
      },
    ],
  },
  "google-research-datasets/mbpp": {
    features: {
      task_id: int,
      text: str,
      code: str,
      test_list: strings,
      test_setup_code: str,
      challenge_test_list: strings,
    },
    total: 500,
    rows: [
      {
        task_id: 11,
        text: "Write a function to add one.",
        code: "def inc(x):\n    return x + 1",
        test_list: ["assert inc(1) == 2"],
        test_setup_code: "",
        challenge_test_list: [],
      },
    ],
  },
  "lighteval/drop_harness": {
    features: {
      section_id: str,
      query_id: str,
      passage: str,
      question: str,
      answer: dropAnswerType,
      validated_answers: { feature: dropAnswerType, _type: "Sequence" },
    },
    total: 9536,
    rows: [
      {
        section_id: "nfl_1184",
        query_id: "q-count",
        passage: "The Bears kicked 3 field goals in the first half and 1 in the second.",
        question: "How many field goals did the Bears kick?",
        answer: { number: "4", date: { day: "", month: "", year: "" }, spans: [] },
        validated_answers: {
          number: ["4", ""],
          date: [
            { day: "", month: "", year: "" },
            { day: "", month: "", year: "" },
          ],
          spans: [[], ["four"]],
        },
      },
      {
        section_id: "history_2",
        query_id: "q-spans",
        passage: "Troops came from Genoa and Pisa in 1099.",
        question: "Which cities sent troops?",
        answer: { number: "", date: { day: "", month: "", year: "" }, spans: ["Genoa", "Pisa"] },
        validated_answers: { number: [], date: [], spans: [] },
      },
      {
        section_id: "history_3",
        query_id: "q-date",
        passage: "The treaty was signed on 4 July 1776.",
        question: "When was the treaty signed?",
        answer: { number: "", date: { day: "4", month: "July", year: "1776" }, spans: [] },
        validated_answers: { number: [], date: [], spans: [] },
      },
    ],
  },
};

/** A /rows answer in the dataset viewer's documented shape, for the asked offset and length. */
function rowsResponse(f: Fixture, offset: number, length: number) {
  return {
    features: Object.entries(f.features).map(([name, type], feature_idx) => ({
      feature_idx,
      name,
      type,
    })),
    rows: f.rows
      .slice(offset, offset + length)
      .map((row, i) => ({ row_idx: offset + i, row, truncated_cells: [] })),
    num_rows_total: f.total,
    num_rows_per_page: 100,
    partial: false,
  };
}

/** A fake Hub: the dataset API answers `sha`, the rows API the fixture rows in its shape. */
export function hub(sha: string, urls: string[] = []) {
  return (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : input);
    urls.push(url.toString());
    if (url.pathname.startsWith("/api/datasets/"))
      return Promise.resolve(
        new Response(JSON.stringify({ id: "x", sha, lastModified: "2025-01-01T00:00:00.000Z" })),
      );
    const q = url.searchParams;
    const f = FIXTURES[q.get("dataset")!];
    if (!f)
      return Promise.resolve(
        new Response(JSON.stringify({ error: "The dataset does not exist." }), { status: 404 }),
      );
    const body = rowsResponse(f, Number(q.get("offset")), Number(q.get("length")));
    return Promise.resolve(new Response(JSON.stringify(body)));
  };
}

export const OPTS = { base: "http://rows.test", hub: "http://hub.test" };
