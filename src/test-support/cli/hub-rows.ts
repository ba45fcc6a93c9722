// Test support for reading a benchmark from the Hugging Face Hub without the Hub: one GPQA-Diamond
// row in the Hub's shape, and the dataset-viewer page of rows that carries it. Not a test file itself.

/** One GPQA-Diamond row as the Hub serves it: the photon is the right answer. */
export const GPQA_ROW = {
  "Record ID": "r1",
  Question: "Which boson carries the electromagnetic force?",
  "Correct Answer": "Photon",
  "Incorrect Answer 1": "Gluon",
  "Incorrect Answer 2": "Z boson",
  "Incorrect Answer 3": "Higgs boson",
  "High-level domain": "Physics",
};

/** The dataset viewer's `/rows` answer holding just `row`. */
export function hubRowsPage(row: Record<string, unknown> = GPQA_ROW) {
  return {
    features: Object.keys(row).map((name) => ({ name })),
    rows: [{ row_idx: 0, row }],
    num_rows_total: 1,
  };
}
