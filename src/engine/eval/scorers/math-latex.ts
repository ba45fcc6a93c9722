/**
 * Clean-up of a math answer (LaTeX or plain text) before it is parsed: styling, units, degrees,
 * `\approx` tails, thousands separators and percentages out, ASCII math into LaTeX. Only form is
 * changed here; what the answer means is decided by the parser and the comparison.
 */
import { braceGroup } from "./latex-braces.ts";
import { degreesInTrig, mixedNumber, sentenceNumber } from "./math-forms.ts";
import type { MathRule } from "./math-profiles.ts";
import { VERSION_2 } from "./math-profiles.ts";

/** The argument of each `\command{...}` (braces balanced) replaced by `f(argument)`. */
export function replaceCommand(text: string, command: string, f: (arg: string) => string): string {
  let out = text;
  for (let from = 0, guard = 0; guard < 100; guard++) {
    const at = out.indexOf(command, from);
    if (at < 0) return out;
    let i = at + command.length;
    while (out[i] === " ") i++;
    // (a longer command, \textbf when looking for \text, has a letter here, not a brace)
    if (out[i] !== "{") {
      from = at + command.length;
      continue;
    }
    const g = braceGroup(out, i + 1);
    const replaced = f(g.inner);
    out = out.slice(0, at) + replaced + out.slice(g.end);
    from = at + replaced.length;
  }
  return out;
}

/** Words that are units or filler after a number: dropped when they follow a number. */
const UNIT =
  "(?:dollars?|cents?|euros?|pounds?|yuan|yen|km\\/h|mph|m\\/s|kilometers?|kilometres?|km|cm|mm|meters?|metres?|m|kg|grams?|g|mg|litres?|liters?|ml|l|hours?|hrs?|h|minutes?|mins?|seconds?|secs?|s|days?|weeks?|months?|years?|units?|square|sq|cubic|inches|inch|in|feet|foot|ft|miles?|yards?|people|students|persons?|ways?|degrees?|points?|pages?|cups?|apples|items|times)";
const UNIT_AFTER_NUMBER = new RegExp(
  `(\\d|\\})\\s*(?:${UNIT}\\b(?:\\s*(?:\\^\\{?[23]\\}?|²|³))?\\s*)+`,
  "gi",
);
const PERCENT = /\\%|%|\s*\b(?:percentage|percent|pct)\b/gi;

/** A normalised answer, and whether it carried a percent sign. */
export interface CleanAnswer {
  latex: string;
  percent: boolean;
}

/** Each call matched by `opening` ("sqrt(", "^("), parentheses balanced, rewritten by `wrap`. */
function rewriteCalls(s: string, opening: RegExp, wrap: (inner: string) => string): string {
  let out = s;
  for (let m = opening.exec(out); m; m = opening.exec(out)) {
    const g = braceGroup(out, m.index + m[0].length, "(", ")");
    out = out.slice(0, m.index) + wrap(g.inner) + out.slice(g.end);
  }
  return out;
}

/** Plain-text math into the LaTeX the parser reads: `sqrt(3)`, `2**(1/4)`, `pi`, `inf`. */
function asciiToLatex(s: string): string {
  let out = rewriteCalls(s.replace(/\*\*/g, "^"), /\^\(/, (a) => `^{${a}}`);
  out = rewriteCalls(out, /\bsqrt\(/, (a) => `\\sqrt{${a}}`);
  return out
    .replace(/(?<![\\A-Za-z])pi\b/g, "\\pi")
    .replace(/(?<![\\A-Za-z])(?:inf|infinity)\b/g, "\\infty")
    .replace(/<=/g, "\\le ")
    .replace(/>=/g, "\\ge ")
    .replace(/!=/g, "\\ne ");
}

/** Styling and text commands: their content stays, the command goes. */
function unwrapText(s: string): string {
  let out = s;
  for (const c of ["\\textbf", "\\textnormal", "\\textrm", "\\textit", "\\mathbf", "\\mbox"])
    out = replaceCommand(out, c, (a) => a);
  out = replaceCommand(out, "\\text", (a) => ` ${a} `);
  // (Euler's number stays attached: `5\mathrm{e}` is 5e, not 5 and a word)
  return replaceCommand(out, "\\mathrm", (a) => (/^[eE]$/.test(a.trim()) ? a.trim() : ` ${a} `));
}

/**
 * Normalises one answer's text (no extraction here: the text is the answer). `rules` are the
 * profile's (see `math-profiles.ts`): each switchable step below names the rule that allows it.
 */
export function cleanAnswer(
  raw: string,
  rules: ReadonlySet<MathRule> = VERSION_2.rules,
): CleanAnswer {
  const has = (r: MathRule) => rules.has(r);
  let s = raw.trim();
  // the math delimiters, wherever they are: "x = \\(5\\)" is x = 5
  s = s.replace(/^\$+|\$+$/g, "").replace(/\\[()[\]]/g, "");
  // a command typed with its backslash escaped ("\\\\frac" for "\\frac"); "\\\\" alone is a row break
  s = s.replace(
    /(?<!\\)\\\\(?=(?:le|ge|leq|geq|lt|gt|neq|text|d?t?frac|sqrt|boxed|left|right|pi|cdot|times|infty|sin|cos|tan|log|ln|mathrm|textbf|pm)(?![a-zA-Z]))/g,
    "\\",
  );
  s = unwrapText(s);
  if (has("sentence")) s = sentenceNumber(s.trim());
  s = s.replace(/\\[dtc]frac/g, "\\frac");
  s = s.replace(/\\(?:left|right|bigl|bigr|Bigl|Bigr|big|Big)(?![a-zA-Z])/g, "");
  s = s.replace(/,\\!\s*/g, ",").replace(/\\begin\{array\}\{[^{}]*\}/g, "\\begin{pmatrix}");
  s = s.replace(/\\end\{array\}/g, "\\end{pmatrix}").replace(/\\angle\b/g, "");
  s = s.replace(/\\\\\s*\\end\{/g, "\\end{"); // a trailing row break before \end{pmatrix}
  s = s.replace(/\\[!,](?![a-zA-Z])/g, "").replace(/\\[;:>]|\\quad|\\qquad|~/g, " ");
  s = s.replace(/\\displaystyle|\\limits/g, "");
  // a matrix in brackets: "\left[\begin{array}...\end{array}\right]", also after "A ="
  s = s.replace(
    /[[(]\s*(\\begin\{pmatrix\}(?:(?!\\end\{pmatrix\})[\s\S])*\\end\{pmatrix\})\s*[\])]/g,
    "$1",
  );
  if (has("degrees")) s = degreesInTrig(s);
  // degrees: "30^\circ", "30^{\circ}", "30°" are the number 30
  s = s.replace(/\^\s*\{?\s*\\circ\s*\}?|°|\\degree/g, "");
  // "x ≈ 0.577" and "\frac{\sqrt3}{3} \approx 0.577": the exact form before the tail wins
  const approx = has("approx-tail") ? /\\approx|≈/.exec(s) : null;
  if (
    approx &&
    approx.index > 0 &&
    !/^\s*[a-zA-Z](?:_\{?\w+\}?)?\s*$/.test(s.slice(0, approx.index))
  )
    s = s.slice(0, approx.index);
  else if (approx) s = s.slice(approx.index + approx[0].length);
  const percent = has("percent") && PERCENT.test(s);
  if (has("percent")) s = s.replace(PERCENT, " ");
  s = s.replace(/\\\$|\$|£|€|¥/g, " ");
  if (has("units")) s = s.replace(UNIT_AFTER_NUMBER, "$1 ");
  // a decimal comma: "1000,99", "0,111" (a whole answer, two decimals or a leading zero)
  if (/^-?(?:\d+,\d{2}|0,\d+)$/.test(s.trim())) s = s.replace(",", ".");
  // thousands separators: "7,425,000", "11,\!111" (after \! went), "1 000"
  if (has("thousands")) s = thousandsOut(s);
  s = asciiToLatex(s);
  s = s.replace(/(?<![\d.])\.(\d)/g, "0.$1"); // ".5" is 0.5
  // "(11,7) or (7,11)", "1 and 2": a list
  s = s.replace(/\s*(?<![A-Za-z])(?:,\s*)?(?:and|or)(?![A-Za-z])\s*/g, ", ");
  // "17 any text": a number followed by words only is the number
  const trailing = /^([^A-Za-z]*\d[^A-Za-z]*?)\s+[A-Za-z][A-Za-z\s]*$/.exec(s);
  if (trailing && has("units")) s = trailing[1]!;
  s = s
    .replace(/−/g, "-")
    .replace(/\\\s*$/, "")
    .replace(/\s+/g, " ")
    .replace(/ ([,)\]])/g, "$1")
    .trim()
    .replace(/^[.,;:]+|[.,;:]+$/g, "")
    .trim();
  if (has("mixed-number")) s = mixedNumber(s);
  return { latex: s, percent };
}

/** Thousands separators out: "7,425,000", "11,111" (after `\\!` went), "14{,}916", "1 000". */
function thousandsOut(text: string): string {
  const s = text.replace(/(\d)\s*\{\s*,\s*\}\s*(?=\d{3}(?!\d))/g, "$1"); // "14{,}916", "14 {, }916"
  // (not inside a tuple or interval: "(12,102)" is a pair)
  return s.replace(
    /(?<![\d.([,]\s*)(?<![\d.])(\d{1,3})(?:(?:,|[ ]|\{,\})(\d{3}))+(?![\d]|\s*[,)\]])/g,
    (m) => (/, /.test(m) ? m : m.replace(/\{,\}|[, ]/g, "")),
  );
}
