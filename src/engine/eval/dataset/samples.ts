import { datasetHash } from "./hash.ts";
import { SAMPLE_CODE } from "./sample-code.ts";
import { SAMPLE_MATH } from "./sample-math.ts";
import { answerItems } from "./sample-items.ts";
import { SAMPLE_SCIENCE } from "./sample-science.ts";
import type { EvalItem, QuestionSet } from "./item-schema.ts";

const FACTUAL: EvalItem[] = answerItems("fact", "factual", [
  ["What is the capital city of Canada?", "Ottawa"],
  ["Which element has the chemical symbol Fe?", "Iron"],
  ["How many sides does a hexagon have?", "6"],
  ["Who wrote the novel 'Pride and Prejudice'?", "Jane Austen"],
  ["What is the largest ocean on Earth?", "Pacific Ocean"],
  ["In which continent is the Sahara Desert?", "Africa"],
  ["What is the freezing point of water in degrees Fahrenheit?", "32"],
  ["Which planet is known as the Red Planet?", "Mars"],
  ["What language has the most native speakers?", "Mandarin Chinese"],
  ["How many minutes are there in a day?", "1440"],
]);

export interface SampleSet extends QuestionSet {
  id: "math" | "science" | "factual" | "code";
  description: string;
  /** The scorer that suits the set. */
  scorer: "math" | "mc" | "contains" | "code";
}

function sample(
  id: SampleSet["id"],
  name: string,
  description: string,
  scorer: SampleSet["scorer"],
  items: EvalItem[],
): SampleSet {
  return { id, name, description, scorer, items, hash: datasetHash(items) };
}

/** The small sets a new user can try in a minute (written for this project). */
export const SAMPLE_SETS: readonly SampleSet[] = [
  sample("math", "Word problems", "20 word problems with numeric answers", "math", SAMPLE_MATH),
  sample(
    "science",
    "Science (4 choices)",
    "20 four-choice science questions",
    "mc",
    SAMPLE_SCIENCE,
  ),
  sample("factual", "Short facts", "10 short factual questions", "contains", FACTUAL),
  sample(
    "code",
    "Python tasks",
    "7 short Python tasks, scored by running the answer against tests",
    "code",
    SAMPLE_CODE,
  ),
];
