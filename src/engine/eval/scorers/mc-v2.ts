/**
 * Multiple choice, version 2: the strict and lenient cascades of the field's graders
 * (simple-evals' "Answer: X" in many languages, Inspect's last "ANSWER:" line, lighteval's and
 * Math-Verify's letter extraction). A hedged answer that names several letters gives no letter.
 * Version 1 (`mc.ts`) stays available by version.
 */
import { z } from "zod";
import { lastBoxed, stripThinking } from "./extract.ts";
import { optionsOf } from "./mc.ts";
import type { ScoreResult, Scorer, ScoredItem } from "./types.ts";
import { verdict } from "./types.ts";

/** Which rule read the letter (or why none was read). */
export const McRuleSchema = z.enum([
  "answer-line",
  "boxed",
  "phrase",
  "bold",
  "leading-letter",
  "lone-letter",
  "option-text",
  "only-letter",
  "bare-letter",
  "hedged",
  "none",
]);
export type McRule = z.infer<typeof McRuleSchema>;

/** Why a multiple-choice verdict is what it is. */
export const McReasonSchema = z.enum([
  "right letter",
  "wrong letter",
  "several letters",
  "no letter found",
  "no correct letter",
]);
export type McReason = z.infer<typeof McReasonSchema>;

export interface McReading {
  letter: string | null;
  rule: McRule;
}

/** "Answer" as simple-evals' multilingual MMLU writes it, and a few more. */
const LABEL =
  "(?:final\\s+)?(?:answer|answers|r[ée]ponse(?:\\s+finale)?|respuesta(?:\\s+final)?|risposta|resposta|antwort|jawaban|jibu|[ìi]d[áa]h[ùu]n|উত্তর|उत्तर|답변|정답|답|答案|答复|答曰|答え|回答|解答|答|الإجابة(?:\\s+الصحيحة|\\s+النهائية)?(?:\\s+هي)?|الجواب(?:\\s+النهائي)?|إجابة)";

/** Letters other scripts use for A-D (simple-evals' `normalize_extracted_answer`). */
const SCRIPT_LETTERS: Record<string, string> = {
  أ: "A",
  ب: "B",
  ج: "C",
  د: "D",
  অ: "A",
  ব: "B",
  ড: "C",
  ঢ: "D",
};

/** The reply as the patterns read it: fullwidth letters, markdown and LaTeX wrappers out. */
function normalise(reply: string): string {
  let t = stripThinking(reply).normalize("NFKC");
  t = t.replace(/[أبجدঅবডঢ](?![\p{L}])/gu, (c) => SCRIPT_LETTERS[c] ?? c);
  return t
    .replace(/\\(?:text|textbf|mathrm|mathbf)\s*\{([^{}]*)\}/g, "$1")
    .replace(/\$/g, "")
    .replace(/[“”„]/g, '"')
    .replace(/[‘’]/g, "'");
}

const OPEN = `["'(\\[*_\\s]*`;
const CLOSE = `["')\\]*_]*`;
/** After a letter: the end, punctuation, a space or a character of another script; not a letter. */
const AFTER = "(?![A-Za-z0-9])";
/** Another letter right after the first: "A or C", "A, B", "A/B", "A and D" - a hedge. */
const HEDGE = new RegExp(
  `^${CLOSE}\\s*(?:,|/|&|\\bor\\b|\\band\\b|\\bet\\b|\\bo\\b|\\by\\b|或|和)\\s*(?:option\\s+)?${OPEN}([A-J])${AFTER}`,
  "i",
);

/** True when the text right after a letter names another valid capital letter. */
function hedged(after: string, valid: string): boolean {
  const h = HEDGE.exec(after);
  return h !== null && h[1] === h[1]!.toUpperCase() && valid.includes(h[1]);
}

/** The last match of `re` whose letter is valid; "hedged" when that one names a second letter. */
function lastLetter(text: string, re: RegExp, valid: string, rule: McRule): McReading | null {
  let found: McReading | null = null;
  for (const m of text.matchAll(re)) {
    // the label is case-free, the letter is a capital (valid letters are): "answer: c" names none
    const letter = m.slice(1).find((g) => g !== undefined);
    if (!letter || !valid.includes(letter)) continue;
    found = hedged(text.slice(m.index + m[0].length), valid)
      ? { letter: null, rule: "hedged" }
      : { letter, rule };
  }
  return found;
}

const ANSWER_LINE = new RegExp(`${LABEL}\\s*[:：]\\s*${OPEN}([A-J])${CLOSE}${AFTER}`, "gi");

/** The strict reading: the last "Answer: X" (any language), or a boxed letter. */
export function strictReading(reply: string, valid: string): McReading {
  const t = normalise(reply);
  const boxed = lastBoxed(stripThinking(reply).normalize("NFKC"));
  const fromBox = boxed === null ? null : /^\s*(?:\\text\{)?\s*\(?([A-J])\)?\s*\}?\s*$/.exec(boxed);
  const line = lastLetter(t, ANSWER_LINE, valid, "answer-line");
  if (line) return line;
  if (fromBox && valid.includes(fromBox[1]!)) return { letter: fromBox[1]!, rule: "boxed" };
  return { letter: null, rule: "none" };
}

/** "the answer is for sure D", "I think it's B", "la respuesta es C", "option (C) is correct". */
const PHRASE = [
  `(?:${LABEL}|option|choice)\\s+(?:is|would be|should be|must be|est|es|è|é|ist)\\s*(?:for sure|definitely|clearly|probably|likely|therefore|then)?\\s*[:\\-]?\\s*(?:option|choice)?\\s*${OPEN}([A-J])${CLOSE}${AFTER}`,
  `\\b(?:I think|I believe|I'd say|I would say|I choose|I pick|I select|I go with|I'll go with|I would choose|my answer is|so it's|so it is|therefore it's)\\s+(?:it's|it is|that|the answer is|option|choice)?\\s*${OPEN}([A-J])${CLOSE}${AFTER}`,
  `\\b(?:option|choice)\\s+${OPEN}([A-J])${CLOSE}\\s+(?:is|seems)\\s+(?:the\\s+)?(?:correct|right|best)`,
].join("|");

function phraseReading(t: string, valid: string): McReading | null {
  return lastLetter(t, new RegExp(PHRASE, "gi"), valid, "phrase");
}

/** A lower-case word after "A" or "I" that makes it an article or pronoun ("or" and "and" do not). */
const ARTICLE_AFTER = /^\s+(?!(?:or|and|nor)\b)[a-z]/;

/**
 * The lenient cascade: the strict reading, then a phrase naming the answer, then a bold letter,
 * then a reply that opens with its letter ("D. ...", "(B) ...", "B。"), then a last line that is a
 * letter, then the text of exactly one option on the last line, then the one capital letter the
 * reply names ("Because B is valid"; an article "A" before a lower-case word is not one).
 */
export function lenientReading(
  reply: string,
  options: Map<string, string>,
  valid: string,
  bareLower = false,
): McReading {
  const strict = strictReading(reply, valid);
  if (strict.letter || strict.rule === "hedged") return strict;
  const t = normalise(reply);
  // version 3: a reply that is only a letter, lower-case too ("b", "(c)", "d.")
  const bare = bareLower ? /^[("'[*\s]*([a-j])[)\]'".*\s]*$/.exec(t) : null;
  if (bare && valid.includes(bare[1]!.toUpperCase()))
    return { letter: bare[1]!.toUpperCase(), rule: "bare-letter" };
  const phrase = phraseReading(t, valid);
  if (phrase) return phrase;
  const bold = lastLetter(t, /\*\*\s*\(?([A-J])\)?[.:]?\s*\*\*/g, valid, "bold");
  if (bold) return bold;
  const lines = t
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const lead = /^[("'[]?([A-J])(?:[).:\]。、，,]|\s+(?=\S)|(?=[^ -~]))/.exec(lines[0] ?? "");
  if (lead && valid.includes(lead[1]!) && !/^[AI]\s+[a-z]/.test(lines[0]!)) {
    if (!hedged(lines[0]!.slice(lines[0]!.indexOf(lead[1]!) + 1), valid))
      return { letter: lead[1]!, rule: "leading-letter" };
  }
  const last = lines.at(-1) ?? "";
  const lone = /^[("'[]?([A-J])[)\].。]?$/.exec(last);
  if (lone && valid.includes(lone[1]!)) return { letter: lone[1]!, rule: "lone-letter" };
  const named = [...options].filter(([, text]) => last.toLowerCase().includes(text.toLowerCase()));
  if (named.length === 1) return { letter: named[0]![0], rule: "option-text" };
  // an article or pronoun before a word ("A good approach", "I think") is not a letter
  const letters = new Set(
    [...t.matchAll(/(?<![A-Za-z0-9'])\(?([A-J])\)?(?![A-Za-z0-9'])/g)]
      .filter((m) => !/[AI]/.test(m[1]!) || !ARTICLE_AFTER.test(t.slice(m.index + m[0].length)))
      .map((m) => m[1]!)
      .filter((l) => valid.includes(l)),
  );
  if (letters.size === 1) return { letter: [...letters][0]!, rule: "only-letter" };
  return { letter: null, rule: letters.size > 1 ? "hedged" : "none" };
}

/**
 * Multiple choice, versions 2 and 3 (see the module comment); both readings are kept in
 * `details`. Version 3's lenient cascade also reads a reply that is only a lower-case letter.
 */
export function multipleChoiceScorerV2(
  mode: "strict" | "lenient" = "lenient",
  version: 2 | 3 = 3,
): Scorer {
  return {
    id: "mc",
    version,
    score(answer: string, item: ScoredItem): Promise<ScoreResult> {
      const expected = item.expected?.trim().toUpperCase();
      if (!expected || !/^[A-J]$/.test(expected))
        return Promise.resolve(
          verdict(null, null, { reason: "no correct letter" satisfies McReason }),
        );
      const options = optionsOf(item.question);
      const valid = options.size >= 2 ? [...options.keys()].join("") : "ABCDEFGHIJ";
      const strict = strictReading(answer, valid);
      const lenient = lenientReading(answer, options, valid, version >= 3);
      const chosen = mode === "lenient" ? lenient : strict;
      const reason: McReason = chosen.letter
        ? chosen.letter === expected
          ? "right letter"
          : "wrong letter"
        : chosen.rule === "hedged"
          ? "several letters"
          : "no letter found";
      return Promise.resolve(
        verdict(chosen.letter === expected, chosen.letter, {
          reason,
          details: {
            strict: strict.letter === expected,
            lenient: lenient.letter === expected,
            strictLetter: strict.letter,
            lenientLetter: lenient.letter,
            rule: chosen.rule,
          },
        }),
      );
    },
  };
}
