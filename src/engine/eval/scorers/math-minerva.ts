/**
 * The Minerva normalisation (Lewkowycz et al. 2022, appendix D.1; the `normalize_final_answer` of
 * lm-evaluation-harness's `minerva_math` task): the text after the last "=", fixed substitutions
 * and removed words, the content of `\text{}`, `\textbf{}`, `\overline{}` and `\boxed{}`, shorthand
 * `\frac12` and `\sqrt2` braced, and "100,000" as "100000". The `minerva` profile compares the two
 * normalised strings exactly; nothing is evaluated.
 */

const SUBSTITUTIONS: [string, string][] = [
  ["an ", ""],
  ["a ", ""],
  [".$", "$"],
  ["\\$", ""],
  ["\\ ", ""],
  [" ", ""],
  ["mbox", "text"],
  [",\\text{and}", ","],
  ["\\text{and}", ","],
  ["\\text{m}", "\\text{}"],
];

const REMOVED = [
  "square",
  "ways",
  "integers",
  "dollars",
  "mph",
  "inches",
  "ft",
  "hours",
  "km",
  "units",
  "\\ldots",
  "sue",
  "points",
  "feet",
  "minutes",
  "digits",
  "cents",
  "degrees",
  "cm",
  "gm",
  "pounds",
  "meters",
  "meals",
  "edges",
  "students",
  "childrentickets",
  "multiples",
  "\\text{s}",
  "\\text{.}",
  "\\text{\ns}",
  "\\text{}^2",
  "\\text{}^3",
  "\\text{\n}",
  "\\text{}",
  "\\mathrm{th}",
  "^\\circ",
  "^{\\circ}",
  "\\;",
  ",\\!",
  "{,}",
  '"',
  "\\dots",
];

/** One answer as Minerva's `normalize_final_answer` leaves it. */
export function minervaNormalise(answer: string): string {
  let s = answer.split("=").at(-1)!;
  for (const [from, to] of SUBSTITUTIONS) s = s.split(from).join(to);
  for (const word of REMOVED) s = s.split(word).join("");
  s = s.replace(/^(.*?)(\$)(.*?)(\$)(.*)$/s, "$$$3$$");
  s = s.replace(/(\\text\{)(.*?)(\})/g, "$2");
  s = s.replace(/(\\textbf\{)(.*?)(\})/g, "$2");
  s = s.replace(/(\\overline\{)(.*?)(\})/g, "$2");
  s = s.replace(/(\\boxed\{)(.*)(\})/g, "$2");
  s = s.replace(/(frac)([^{])(.)/g, "frac{$2}{$3}");
  s = s.replace(/(sqrt)([^{])/g, "sqrt{$2}");
  s = s.replace(/\$/g, "");
  if (/^\d+$/.test(s.replace(/,/g, ""))) s = s.replace(/,/g, "");
  return s;
}
