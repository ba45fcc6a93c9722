/** Answer extraction shared by the scorers: the last `\boxed{}`, `<answer>` tag or "Answer:" line. */
import { braceGroup } from "./latex-braces.ts";

/** Removes `<think>` blocks so reasoning never counts as the answer. */
export function stripThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?(<\/think>|$)/gi, "");
}

/** The content of the last `\boxed{...}` (or `\fbox{}`), braces balanced; null when none. */
export function lastBoxed(text: string): string | null {
  const re = /\\(?:boxed|fbox)\s*\{/g;
  let found: string | null = null;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const g = braceGroup(text, m.index + m[0].length);
    if (g.closed) found = g.inner;
  }
  return found;
}

/** The content of the last `<answer>...</answer>` tag. */
export function lastAnswerTag(text: string): string | null {
  const all = [...text.matchAll(/<answer>([\s\S]*?)<\/answer>/gi)];
  return all.at(-1)?.[1]?.trim() ?? null;
}

/** The rest of the last line that starts with "Answer:" (also "Final answer:", bold or not). */
export function lastAnswerLine(text: string): string | null {
  const re =
    /^[\s>*#_-]*(?:the\s+)?(?:final\s+)?answer\s*(?:is)?\s*\**\s*[:：]\s*\**\s*(.+?)\s*$/gim;
  const all = [...text.matchAll(re)];
  const got = all.at(-1)?.[1];
  return got === undefined ? null : got.replace(/^\*+|\*+$/g, "").trim() || null;
}

/** The strict answer: boxed, then tag, then "Answer:" line. */
export function finalAnswer(text: string): string | null {
  const t = stripThinking(text);
  return lastBoxed(t) ?? lastAnswerTag(t) ?? lastAnswerLine(t);
}
