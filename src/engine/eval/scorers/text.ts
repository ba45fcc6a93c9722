import { finalAnswer, stripThinking } from "./extract.ts";
import type { Scorer } from "./types.ts";
import { verdict } from "./types.ts";

/**
 * Lower case, no accents, punctuation and a leading article dropped, whitespace collapsed. Only a
 * leading "a", "an" or "the" goes: dropping every one made "Vitamin A" read as "vitamin" (so
 * "Vitamin C" contained it) and an empty answer equal to the reference "A".
 */
export function normaliseText(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[*_`"'“”‘’]/g, "")
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^(?:a|an|the) (?=\S)/, "");
}

/** The marked final answer, else the whole reply without reasoning blocks. */
function answerText(answer: string): string {
  return finalAnswer(answer) ?? stripThinking(answer).trim();
}

/** The reference with alternatives: `Ottawa|Ottawa, Ontario` accepts either. */
function alternatives(expected: string): string[] {
  return expected
    .split("|")
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * A version-2 scorer that reads the final answer and accepts it when `matches` holds for one of the
 * reference's alternatives (both sides normalised). An item without a reference is left unscored.
 */
function referenceTextScorer(
  id: string,
  matches: (normalisedAnswer: string, normalisedReference: string) => boolean,
): Scorer {
  return {
    id,
    version: 2,
    score(answer, item) {
      if (!item.expected?.trim()) {
        return Promise.resolve(
          verdict(null, null, { reason: "The item has no reference answer." }),
        );
      }
      const got = answerText(answer);
      const normalised = normaliseText(got);
      const ok = alternatives(item.expected).some((e) => matches(normalised, normaliseText(e)));
      return Promise.resolve(verdict(ok, got));
    },
  };
}

/** Exact match of the final answer against the reference, after normalisation. */
export function exactScorer(): Scorer {
  return referenceTextScorer("exact", (got, reference) => got === reference);
}

/** The reference appears in the final answer as whole words, after normalisation. */
export function containsScorer(): Scorer {
  return referenceTextScorer(
    "contains",
    (got, reference) => reference !== "" && ` ${got} `.includes(` ${reference} `),
  );
}

/**
 * A regular expression: the scorer's own pattern, or the reference read as one. A pattern that does
 * not compile leaves the item unscored. Matches against the final answer (or the whole reply).
 */
export function regexScorer(options: { pattern?: string; flags?: string } = {}): Scorer {
  return {
    id: "regex",
    version: 1,
    score(answer, item) {
      const source = options.pattern ?? item.expected;
      if (!source) return Promise.resolve(verdict(null, null, { reason: "No pattern." }));
      let re: RegExp;
      try {
        re = new RegExp(source, options.flags ?? "i");
      } catch (e: unknown) {
        return Promise.resolve(
          verdict(null, null, {
            reason: `The pattern does not compile: ${e instanceof Error ? e.message : String(e)}`,
          }),
        );
      }
      const got = answerText(answer);
      const m = re.exec(got);
      return Promise.resolve(verdict(m !== null, m ? m[0] : got));
    },
  };
}
