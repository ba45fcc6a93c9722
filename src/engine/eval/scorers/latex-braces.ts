/**
 * The one LaTeX brace scanner: every scorer that reads `\boxed{...}`, `\frac{..}{..}` or
 * `\text{...}` finds the end of a group here, so an unclosed group is treated alike everywhere.
 */

/** A brace group's content and where scanning stopped. */
export interface BraceGroup {
  /** The text between the braces (to the end of the text when unclosed). */
  inner: string;
  /** The index just after the closing brace (the text's length when unclosed). */
  end: number;
  closed: boolean;
}

/** How a backslash reads: as text (the scorers), or as an escape, so `\{` and `\}` do not count. */
type Backslash = "text" | "escape";

/**
 * The group whose opening brace is just before `start` (so `text[start - 1] === "{"`), nested
 * braces balanced. `open`/`close` default to braces; `rewriteCalls` passes parentheses; the
 * rendered answer's bare `\boxed{}` reads backslashes as escapes.
 */
export function braceGroup(
  text: string,
  start: number,
  open = "{",
  close = "}",
  backslash: Backslash = "text",
): BraceGroup {
  let depth = 1;
  let i = start;
  for (; i < text.length && depth > 0; i++) {
    if (backslash === "escape" && text[i] === "\\") i++;
    else if (text[i] === open) depth++;
    else if (text[i] === close) depth--;
  }
  const closed = depth === 0;
  return { inner: text.slice(start, closed ? i - 1 : i), end: i, closed };
}
