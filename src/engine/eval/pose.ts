import type { EvalItem } from "./dataset/item-schema.ts";
import { poseChoices } from "./dataset/shuffle.ts";
import { scorerKind } from "./scorers/kinds.ts";

/** An item as every strategy receives it, and the reference its scorer compares with. */
export interface PosedItem {
  question: string;
  expected: string | undefined;
  /** The shuffle, for multiple choice: `order[k]` is the file's index of the option lettered k. */
  order?: number[];
  choiceSeed?: number;
}

/**
 * Poses an item: multiple-choice options shuffled with the evaluation's seed and lettered (the
 * reference becomes the letter), then the answer-format instruction every strategy shares.
 */
export function poseItem(
  item: EvalItem,
  seed: number,
  scorerId: string,
  /** The evaluation's own answer-format instruction (a benchmark preset's), else the scorer's. */
  instructionOverride?: string,
): PosedItem {
  const kind = scorerKind(scorerId);
  const instruction = instructionOverride ?? kind.instruction;
  const mc = kind.posesChoices ? poseChoices(item, seed) : null;
  if (mc)
    return {
      question: `${mc.text}\n\n${instruction}`,
      expected: mc.answerLetter ?? undefined,
      order: mc.order,
      choiceSeed: mc.seed,
    };
  return { question: `${item.question}\n\n${instruction}`, expected: item.expected };
}
