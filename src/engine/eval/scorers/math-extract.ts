/**
 * Where a math answer is in a reply, in Math-Verify's order of priority: "The final answer is $X$.
 * I hope it is correct." and `\boxed{}` first (the rightmost wins; boxes joined only by a comma,
 * "and" or "or" are one answer, a set), then an `<answer>` tag, then "final answer ... is $X$",
 * then "Answer: X", then the last LaTeX span, then the last number. A short reply that is an
 * expression is its own answer. When nothing is found the answer is missing, never guessed.
 */
import { z } from "zod";
import { stripThinking } from "./extract.ts";
import { braceGroup } from "./latex-braces.ts";

export const MathExtractionSchema = z.enum([
  "boxed",
  "boxed-group",
  "final-answer",
  "answer-tag",
  "answer-line",
  "latex",
  "whole",
  "last-number",
]);
export type MathExtraction = z.infer<typeof MathExtractionSchema>;

export interface FoundAnswer {
  text: string;
  how: MathExtraction;
}

interface Box {
  start: number;
  end: number;
  inner: string;
}

/** Every `\boxed{...}` / `\fbox{...}` with balanced braces (an unclosed one runs to the end). */
function boxes(text: string): Box[] {
  const out: Box[] = [];
  const re = /\\(?:begin)?(?:boxed|fbox)\s*\{/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const g = braceGroup(text, m.index + m[0].length);
    out.push({ start: m.index, end: g.end, inner: g.inner });
    re.lastIndex = g.end; // (the end of the text when unclosed)
  }
  return out;
}

/**
 * Text between two boxes that still joins them into one answer: nothing, a comma, or a few words
 * ending in "and" or "or" ("\quad \text{and} \quad", "papers and"); "and then" does not.
 */
function joins(between: string): boolean {
  const t = between
    .replace(/\\(?:text|textnormal|mathrm)\s*\{([^{}]*)\}/g, " $1 ")
    .replace(/\\(?:quad|qquad|[,;:! ()[\]])|[$\s.]+/g, " ")
    .trim();
  return t === "" || (t.length <= 30 && /(?:^|\s|,)(?:and|or|,)$/.test(t));
}

/** The last boxed answer, with the boxes joined to it into a set (Math-Verify's rule). */
export function boxedAnswer(text: string): FoundAnswer | null {
  const all = boxes(text);
  if (all.length === 0) return null;
  const group = [all.at(-1)!];
  for (let k = all.length - 2; k >= 0; k--) {
    if (!joins(text.slice(all[k]!.end, group[0]!.start))) break;
    group.unshift(all[k]!);
  }
  if (group.length === 1) return { text: group[0]!.inner, how: "boxed" };
  return { text: `\\{${group.map((b) => b.inner).join(", ")}\\}`, how: "boxed-group" };
}

/** A LaTeX span: `$$..$$`, `\[..\]`, `\(..\)` or `$..$` on one line (an escaped `\$` inside). */
const SPAN = String.raw`\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\]|\\\(([^\n]+?)\\\)|\$((?:[^\n$\\]|\\[^\n])+?)\$`;

/** The LaTeX spans of a text, in order: `$..$`, `$$..$$`, `\(..\)`, `\[..\]` (inline ones on one line). */
function latexSpans(text: string): { at: number; inner: string }[] {
  const re = new RegExp(SPAN, "g");
  return [...text.matchAll(re)].map((m) => ({
    at: m.index,
    inner: (m[1] ?? m[2] ?? m[3] ?? m[4])!.trim(),
  }));
}

const FINAL_HOPE = /final answer is:?\s*([\s\S]+?)\.?\s*I hope/gi;
const FINAL_IS =
  /final answer[^\n]{0,100}?\s+is:?\s*(\$\$[\s\S]+?\$\$|\$[^$]+\$|\\\([\s\S]+?\\\)|-?\d[\d,]*(?:\.\d+)?%?)/gi;
/** "Answer:" in the languages the reference graders read (lighteval's multilingual tests). */
const ANSWER_LINE =
  /(?:^|\n)[\s>*#_-]*(?:the\s+)?(?:final\s+)?(?:answer|r[ée]ponse(?:\s+finale)?|respuesta(?:\s+final)?|resposta|risposta|antwort|ответ|答案|回答|解答|उत्तर|الإجابة)\s*(?:is)?\s*\**\s*[:：]\s*\**\s*([^\n]+)/gi;
/** A number as prose writes it: "1,000.99", "-3", ".5", "13/28", "\frac{2}{5}", "100%". */
const NUMBER =
  /\\[dt]?frac\{-?\d+\}\{\d+\}|(?<![\w./])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+|,\d{2}(?!\d))?(?:\/\d+)?%?(?![.,]?\d)(?![A-Za-z]*\d)|(?<![\w.])-?\.\d+(?!\d)/g;

/** A pair, tuple or interval of numbers in prose: "(3, 4)", "[0,1)", "(-\infty, 2]". */
const BRACKETED =
  /[([]\s*-?(?:\d+(?:\.\d+)?|\\infty|∞)\s*(?:,\s*[-+]?(?:\d+(?:\.\d+)?|\\infty|∞)\s*)+[)\]]/g;

function lastOf(re: RegExp, text: string): { at: number; inner: string } | null {
  const all = [...text.matchAll(re)];
  const m = all.at(-1);
  return m ? { at: m.index, inner: m[1]! } : null;
}

/** The content of one LaTeX span ("$5$."), of spans joined by "and"/"or"/","; else the text. */
function unspan(s: string): string {
  const spans = latexSpans(s);
  const rest = s.replace(new RegExp(SPAN, "g"), " ");
  if (spans.length > 0 && /^(?:\s|,|\band\b|\bor\b|\.)*$/.test(rest))
    return spans.map((x) => x.inner).join(", ");
  return s.trim();
}

/** A reply short and formula-like enough to be an answer on its own ("x^2 + 2*x + 1", "$[0,1)$"). */
function isBareAnswer(t: string): boolean {
  if (t.length === 0 || t.length > 80 || t.includes("\n")) return false;
  const words = t.replace(/\\[a-zA-Z]+|\{[^{}]*\}/g, " ").match(/[A-Za-z\u00C0-\uFFFF]{3,}/g) ?? [];
  return words.every((w) => /^(?:and|or|sqrt|pi|inf|infty|percent|pct|percentage)$/i.test(w));
}

/** The answer a reply gives, or null when it gives none that can be read. */
export function findMathAnswer(reply: string): FoundAnswer | null {
  const t = stripThinking(reply).trim();
  const hope = lastOf(FINAL_HOPE, t);
  const boxed = boxedAnswer(t);
  // (a box inside the sentence comes after its start, so the box wins)
  if (hope && (!boxed || hope.at > t.lastIndexOf("\\boxed")))
    return { text: unspan(hope.inner.replace(/\\?"/g, "")), how: "final-answer" };
  if (boxed) return boxed;
  const tag = [...t.matchAll(/<answer>([\s\S]*?)<\/answer>/gi)].at(-1)?.[1]?.trim();
  if (tag) return { text: unspan(tag), how: "answer-tag" };
  if (isBareAnswer(t)) return { text: unspan(t), how: "whole" };
  const finalIs = lastOf(FINAL_IS, t);
  if (finalIs) return { text: unspan(finalIs.inner), how: "final-answer" };
  const line = lastOf(ANSWER_LINE, t);
  if (line) {
    const inner = line.inner.replace(/\*+/g, "");
    const bare = inner.replace(/[.\s]+$/, "");
    if (isBareAnswer(bare)) return { text: unspan(bare), how: "answer-line" };
    // prose after the label: its first number, else its last LaTeX span
    const first = inner.match(NUMBER)?.[0];
    const spans = latexSpans(inner).filter((x) => /\d/.test(x.inner));
    if (first) return { text: first, how: "answer-line" };
    if (spans.length > 0) return { text: spans.at(-1)!.inner, how: "answer-line" };
  }
  // "Answer \( (9+1) \)": the word answer, then a LaTeX span within 50 characters
  const worded = lastOf(new RegExp(String.raw`answer[^$\\]{0,50}?((?:${SPAN}))`, "gi"), t);
  if (worded) return { text: unspan(worded.inner), how: "answer-line" };
  // no marker: the rightmost of the last LaTeX span and the last number
  const span = latexSpans(t).at(-1);
  const num = [...t.matchAll(NUMBER)].at(-1);
  if (span && (!num || span.at + span.inner.length >= num.index))
    return { text: span.inner, how: "latex" };
  // a pair or an interval in prose (`(3, 4)`, `(-\infty, \infty)`) when it ends at or after the last
  // number: a number inside it is not the answer, the bracket is
  const struct = [...t.matchAll(BRACKETED)].at(-1);
  if (struct && (!num || struct.index + struct[0].length >= num.index))
    return { text: struct[0], how: "last-number" };
  return num ? { text: num[0], how: "last-number" } : null;
}

/**
 * The reference's final answer: a full solution (MATH's `solution` column) is reduced to its last
 * `\boxed{}`; "$5$" loses its dollars; anything else is taken whole.
 */
export function referenceAnswer(reference: string): FoundAnswer {
  const t = reference.trim();
  const boxed = boxedAnswer(t);
  if (boxed) return boxed;
  if (isBareAnswer(t) || t.length <= 40) return { text: unspan(t), how: "whole" };
  return findMathAnswer(t) ?? { text: t, how: "whole" };
}
