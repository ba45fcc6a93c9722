import { finalAnswer, stripThinking } from "./extract.ts";
import type { ScoreResult, Scorer, ScoredItem } from "./types.ts";
import { verdict } from "./types.ts";

/** The lettered options of a posed question ("A) text" lines), in letter order. */
export function optionsOf(question: string): Map<string, string> {
  const options = new Map<string, string>();
  for (const m of question.matchAll(/^\s*\(?([A-J])[).:]\s+(.+?)\s*$/gm)) options.set(m[1]!, m[2]!);
  return options;
}

function letterAtStart(text: string, valid: string): string | null {
  const m = /^\s*[*_([]*\s*([A-J])\s*[*_)\].:,]*(?:\s|$)/.exec(text);
  return m && valid.includes(m[1]!) ? m[1]! : null;
}

function lastMatch(text: string, re: RegExp, valid: string): string | null {
  let found: string | null = null;
  for (const m of text.matchAll(re)) if (valid.includes(m[1]!)) found = m[1]!;
  return found;
}

/** The letter from the "Answer: X" line (or a boxed letter); null when that line names no letter. */
export function strictLetter(answer: string, valid: string): string | null {
  const final = finalAnswer(answer);
  return final === null ? null : letterAtStart(final, valid);
}

/**
 * The lenient cascade, in the spirit of the common harnesses: the strict line, then "the answer is
 * (X)", then a bold letter, then a last line that is just a letter, then the text of exactly one
 * option on the last line, then exactly one parenthesised letter anywhere.
 */
export function lenientLetter(
  answer: string,
  options: Map<string, string>,
  valid: string,
): string | null {
  const strict = strictLetter(answer, valid);
  if (strict) return strict;
  const t = stripThinking(answer);
  const said = lastMatch(
    t,
    /(?:answer|option|choice)\s+(?:is|would be|should be)?\s*[-:]?\s*(?:option\s+)?\**\(?([A-J])\)?\**(?![A-Za-z])/gi,
    valid,
  );
  if (said) return said.toUpperCase();
  const bold = lastMatch(t, /\*\*\s*\(?([A-J])\)?[.:]?\s*\*\*/g, valid);
  if (bold) return bold;
  const lines = t
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const last = lines.at(-1) ?? "";
  if (/^\(?[A-J]\)?[.)]?$/.test(last)) {
    const l = letterAtStart(last, valid);
    if (l) return l;
  }
  const named = [...options].filter(([, text]) => last.toLowerCase().includes(text.toLowerCase()));
  if (named.length === 1) return named[0]![0];
  const parens = new Set(
    [...t.matchAll(/\(([A-J])\)/g)].map((m) => m[1]!).filter((l) => valid.includes(l)),
  );
  if (parens.size === 1) return [...parens][0]!;
  return null;
}

/**
 * Multiple choice: the reference is the correct letter. `mode` picks which result is the verdict;
 * both are kept in `details`.
 */
export function multipleChoiceScorer(mode: "strict" | "lenient" = "lenient"): Scorer {
  return {
    id: "mc",
    version: 1,
    score(answer: string, item: ScoredItem): Promise<ScoreResult> {
      const expected = item.expected?.trim().toUpperCase();
      if (!expected || !/^[A-J]$/.test(expected))
        return Promise.resolve(verdict(null, null, { reason: "The item has no correct letter." }));
      const options = optionsOf(item.question);
      const valid = options.size >= 2 ? [...options.keys()].join("") : "ABCDEFGHIJ";
      const strict = strictLetter(answer, valid);
      const lenient = lenientLetter(answer, options, valid);
      const chosen = mode === "strict" ? strict : lenient;
      return Promise.resolve(
        verdict(chosen === expected, chosen, {
          ...(chosen ? {} : { reason: "No option letter could be read from the answer." }),
          details: {
            strict: strict === expected,
            lenient: lenient === expected,
            strictLetter: strict,
            lenientLetter: lenient,
          },
        }),
      );
    },
  };
}
