/**
 * Answer forms that the LaTeX parser does not read as a mathematician would: times of day,
 * plain-text mixed numbers, angles in degrees inside trigonometric functions, and a sentence
 * around one number. Each is a rule of `math-profiles.ts`; these functions only rewrite text.
 */

const TIME =
  /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(?:([ap])\.?\s*m\.?)?(?:\s*(?:o'?clock|hrs?|hours?))?$/i;

/**
 * The minute of the day a time names (`3:00 P.M.`, `15:00`, `15:00:00`, `3 pm`), or null. A bare
 * number is not a time: a colon or an A.M./P.M. must be there, and a 24-hour time has two-digit
 * minutes so that a ratio `3:2` is not read as one.
 */
export function timeOfDay(raw: string): number | null {
  const s = raw
    .replace(/\\(?:text|mathrm|textrm|mbox)\s*\{([^{}]*)\}/g, "$1")
    .replace(/\$|\\[,;!: ]|~/g, " ")
    .replace(/\\:/g, ":")
    .replace(/\s+/g, " ")
    .trim();
  const m = TIME.exec(s);
  if (!m || (m[2] === undefined && m[4] === undefined)) return null;
  let h = Number(m[1]);
  const min = m[2] === undefined ? 0 : Number(m[2]);
  const sec = m[3] === undefined ? 0 : Number(m[3]);
  if (min > 59 || sec > 59) return null;
  if (m[4] !== undefined) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (m[4].toLowerCase() === "p" ? 12 : 0);
  } else if (h > 24) return null;
  return h * 60 + min + sec / 60;
}

/** A whole plain-text answer `2 1/2` (or `-2 1/2`) as the LaTeX mixed number `2\frac{1}{2}`. */
export function mixedNumber(s: string): string {
  const m = /^(-?\d+)\s+(\d+)\s*\/\s*(\d+)$/.exec(s.trim());
  return m ? `${m[1]}\\frac{${m[2]}}{${m[3]}}` : s;
}

const TRIG = "(?:sin|cos|tan|sec|csc|cot)";
const DEGREE_MARK = String.raw`(?:\^\s*\{?\s*\\circ\s*\}?|°|\\degree)`;
const NUMBER = String.raw`-?\d+(?:\.\d+)?`;
/** `\sin 30^\circ`, `\cos(40^{\circ})`, `\tan{45°}`: the function and the angle marked in degrees. */
const TRIG_OF_DEGREES = new RegExp(
  String.raw`\\(${TRIG})\s*(\(|\{)?\s*(${NUMBER})\s*${DEGREE_MARK}\s*(\)|\})?`,
  "g",
);

/** Each trigonometric function of an angle marked in degrees rewritten to take radians. */
export function degreesInTrig(s: string): string {
  return s.replace(TRIG_OF_DEGREES, (all, f: string, open?: string, n?: string, close?: string) =>
    (open === undefined) !== (close === undefined) ? all : `\\${f}(\\frac{${n}\\pi}{180})`,
  );
}

/**
 * "He has 12 apples left.": a text of words around exactly one number is that number. A single
 * letter is not a word (`x = 12` stays an assignment), nor is a LaTeX command.
 */
export function sentenceNumber(s: string): string {
  if (/\\|[=<>^_{}()[\]]/.test(s)) return s;
  const numbers = s.match(/-?\d+(?:\.\d+)?(?:\/\d+)?/g) ?? [];
  const words = s.replace(/-?\d+(?:\.\d+)?(?:\/\d+)?/g, " ").match(/[A-Za-z]+/g) ?? [];
  if (numbers.length !== 1 || words.length === 0 || words.some((w) => w.length < 2)) return s;
  if (/[^A-Za-z0-9\s.,'’!?%:;\-/]/.test(s)) return s;
  return numbers[0];
}
