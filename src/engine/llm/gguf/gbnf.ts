/**
 * The plan grammar (xgrammar's EBNF dialect, conductor/grammar.ts) as llama.cpp's GBNF. The two
 * dialects share literals, character classes, groups, `? * +`, `{m,n}` and `#` comments; GBNF
 * rule names allow only letters, digits and `-`, so every `_` in a rule name becomes `-` (outside
 * literals, classes and comments, which keep their text). Names the grammar builder writes never
 * hold `-`, so the renaming cannot merge two rules.
 */
export function toGbnf(ebnf: string): string {
  let out = "";
  let i = 0;
  while (i < ebnf.length) {
    const ch = ebnf[i]!;
    if (ch === '"' || ch === "[") {
      const end = closing(ebnf, i, ch === '"' ? '"' : "]");
      out += ebnf.slice(i, end);
      i = end;
    } else if (ch === "#") {
      const end = ebnf.indexOf("\n", i);
      const stop = end < 0 ? ebnf.length : end;
      out += ebnf.slice(i, stop);
      i = stop;
    } else {
      out += ch === "_" ? "-" : ch;
      i++;
    }
  }
  return out;
}

/** The index just past the literal or class opened at `start`, skipping backslash escapes. */
function closing(text: string, start: number, close: string): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === "\\") i += 2;
    else if (text[i] === close) return i + 1;
    else i++;
  }
  return text.length;
}

/** Whether `head` (a file's first bytes) starts like a GGUF file: the magic "GGUF". */
export function looksLikeGguf(head: Uint8Array): boolean {
  return head.length >= 4 && String.fromCharCode(...head.subarray(0, 4)) === "GGUF";
}
