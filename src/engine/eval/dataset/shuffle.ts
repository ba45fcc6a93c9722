import type { EvalItem } from "./item-schema.ts";

/** mulberry32: a tiny seeded generator, the same in every JavaScript engine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A per-item seed derived from the evaluation's seed and the item id, so items shuffle independently. */
export function itemSeed(seed: number, itemId: string): number {
  let h = seed >>> 0;
  for (let i = 0; i < itemId.length; i++) h = Math.imul(h ^ itemId.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A multiple-choice item as posed: lettered options in shuffled order and the correct letter. */
export interface PosedChoices {
  /** The question followed by the lettered options. */
  text: string;
  /** `order[k]` is the index in the file's list of the option shown as letter k. */
  order: number[];
  /** The letter of the correct option, or null when the reference matches no option. */
  answerLetter: string | null;
  seed: number;
}

/**
 * Where the reference names an option: by its text, by its letter in the file's order ("B"), or
 * by its 0-based index ("1"). Returns -1 when it names none.
 */
export function referenceIndex(choices: readonly string[], expected: string | undefined): number {
  if (expected === undefined) return -1;
  const e = expected.trim();
  const byText = choices.findIndex((c) => c.trim().toLowerCase() === e.toLowerCase());
  if (byText >= 0) return byText;
  if (/^[A-Z]$/i.test(e)) {
    const k = LETTERS.indexOf(e.toUpperCase());
    return k < choices.length ? k : -1;
  }
  if (/^\d+$/.test(e)) {
    const k = Number(e);
    return k < choices.length ? k : -1;
  }
  return -1;
}

/** Shuffles an item's choices with the seed (Fisher-Yates) and letters them A, B, C, D... */
export function poseChoices(item: EvalItem, seed: number): PosedChoices | null {
  const choices = item.choices;
  if (!choices || choices.length < 2) return null;
  const s = itemSeed(seed, item.id);
  const rand = seededRandom(s);
  const order = choices.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const ref = referenceIndex(choices, item.expected);
  const shown = order.indexOf(ref);
  const lines = order.map((k, pos) => `${LETTERS[pos]}) ${choices[k]}`);
  return {
    text: `${item.question}\n\n${lines.join("\n")}`,
    order,
    answerLetter: shown >= 0 ? LETTERS[shown]! : null,
    seed: s,
  };
}
