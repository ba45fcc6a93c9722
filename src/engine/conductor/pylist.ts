/**
 * A small, tolerant reader for the Python list literals a Conductor writes (docs/protocol.md §1.3):
 * strings in single, double or triple quotes with escapes, smart quotes as delimiters, integers,
 * nested lists, trailing commas, `#` comments, and everything JSON allows in an array. It never
 * evaluates anything and never throws on model output.
 */

import { TextIndex } from "./text-index.ts";

export type PyValue = string | number | boolean | null | PyValue[];

export type ListRead =
  | { ok: true; value: PyValue[]; end: number }
  | {
      ok: false;
      reason: string;
      /** The input ended inside the list: the completion was cut off (or is still streaming). */
      truncated: boolean;
      /** Top-level entries already followed by `,` or `]`, so a streaming view can show them. */
      items: PyValue[];
    };

const DOUBLE_QUOTES = '"“”';
const SINGLE_QUOTES = "'‘’";
const SMART_QUOTES = "“”‘’";
const WORDS: Readonly<Record<string, PyValue>> = {
  true: true,
  false: false,
  none: null,
  null: null,
  all: "all", // a bare `all` is a common slip for "all"
};
// Deep nesting is never meaningful here; the cap keeps recursion bounded on adversarial text.
const MAX_DEPTH = 8;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  "0": "\0",
  "/": "/",
  "\\": "\\",
  '"': '"',
  "'": "'",
  "“": "“",
  "”": "”",
  "‘": "‘",
  "’": "’",
};

interface ReadError {
  reason: string;
  truncated: boolean;
}

class Reader {
  pos: number;
  error: ReadError | undefined;
  /** Entries of the outermost list that are complete, kept even when reading fails later. */
  readonly topItems: PyValue[] = [];
  /** Where this read stood at the start of a top-level entry (see TextIndex.failures). */
  readonly entryStarts: number[] = [];

  private readonly src: string;

  constructor(
    private readonly index: TextIndex,
    start: number,
    /** Lenient: a quote closes a string only when `,` `]` or `)` follows, so `'the model's answer'` reads. */
    private readonly lenient: boolean,
  ) {
    this.src = index.src;
    this.pos = start;
  }

  private fail(reason: string): undefined {
    this.error ??= { reason, truncated: this.pos >= this.src.length };
    return undefined;
  }

  private peek(offset = 0): string {
    return this.src.charAt(this.pos + offset);
  }

  /** Whitespace, backticks (inline code marks) and `#` comments separate tokens. */
  private skipSpace(): void {
    while (this.pos < this.src.length) {
      const c = this.peek();
      if (c === "#") {
        const eol = this.src.indexOf("\n", this.pos);
        this.pos = eol < 0 ? this.src.length : eol;
      } else if (/\s|`/.test(c)) this.pos++;
      else return;
    }
  }

  list(depth: number): PyValue[] | undefined {
    const close = this.peek() === "(" ? ")" : "]";
    const items = depth === 0 ? this.topItems : [];
    if (depth > MAX_DEPTH) return this.fail("the lists are nested too deeply");
    this.pos++;
    const failures = this.index.failures[this.lenient ? "lenient" : "strict"];
    for (;;) {
      this.skipSpace();
      if (depth === 0) {
        const known = failures.get(this.pos);
        if (known) {
          this.error = known;
          return undefined;
        }
        this.entryStarts.push(this.pos);
      }
      if (this.pos >= this.src.length) return this.fail(`the list has no closing '${close}'`);
      if (this.peek() === close) {
        this.pos++;
        return items;
      }
      const value = this.value(depth);
      if (value === undefined) return undefined;
      this.skipSpace();
      const sep = this.peek();
      if (sep !== "," && sep !== close) {
        if (this.pos >= this.src.length) return this.fail(`the list has no closing '${close}'`);
        return this.fail(`expected ',' or '${close}' but found '${sep}' at offset ${this.pos}`);
      }
      // Pushed only once the separator is seen: "12" may still become "123" while streaming.
      items.push(value);
      if (sep === ",") this.pos++;
    }
  }

  private value(depth: number): PyValue | undefined {
    const c = this.peek();
    if (c === "[" || c === "(") return this.list(depth + 1);
    if (DOUBLE_QUOTES.includes(c) || SINGLE_QUOTES.includes(c)) return this.strings();
    if (/[-+\d]/.test(c)) return this.number();
    if (/[A-Za-z_]/.test(c)) return this.word();
    return this.fail(`unexpected '${c}' at offset ${this.pos}`);
  }

  /** Adjacent literals concatenate, as in Python: `"part one " "part two"`. */
  private strings(): string | undefined {
    let out = "";
    for (;;) {
      const part = this.string();
      if (part === undefined) return undefined;
      out += part;
      const save = this.pos;
      this.skipSpace();
      const c = this.peek();
      if (c === "" || !(DOUBLE_QUOTES.includes(c) || SINGLE_QUOTES.includes(c))) {
        this.pos = save;
        return out;
      }
    }
  }

  private string(): string | undefined {
    const open = this.peek();
    const family = DOUBLE_QUOTES.includes(open) ? DOUBLE_QUOTES : SINGLE_QUOTES;
    const triple = !SMART_QUOTES.includes(open) && this.src.startsWith(open.repeat(3), this.pos);
    this.pos += triple ? 3 : 1;
    // Where the string ends (its closing quote, or a newline that a strict string may not cross),
    // found in the shared index rather than by scanning: many reads may start in the same text.
    const stop = triple ? this.tripleEnd(open) : this.stopOf(open, family);
    if (stop < 0) {
      this.pos = this.src.length;
      return this.fail("a string is not closed");
    }
    if (!triple && !this.lenient && this.src.charAt(stop) === "\n") {
      this.pos = stop;
      return this.fail(
        `a string is not closed before the end of line ${this.index.lineOf(this.pos)}`,
      );
    }
    const content = this.decode(stop);
    if (content === undefined) return undefined;
    this.pos = stop + (triple ? 3 : 1);
    return content;
  }

  /** The characters up to `stop` with escapes applied; fails on a bad escape. */
  private decode(stop: number): string | undefined {
    const slash = this.index.nextBackslash(this.pos);
    if (slash < 0 || slash >= stop) return this.src.slice(this.pos, stop);
    let out = "";
    while (this.pos < stop) {
      const c = this.peek();
      if (c === "\\") {
        const escaped = this.escape();
        if (escaped === undefined) return undefined;
        out += escaped;
        continue;
      }
      out += c;
      this.pos++;
    }
    // An escape such as \u may not run past the closing quote.
    if (this.pos > stop) return this.fail(`a bad escape near offset ${stop}`);
    return out;
  }

  /**
   * The next unescaped closing quote for `open` at or after pos, or -1. Lenient: a quote of the
   * family closes only when `,` `]` or `)` (or the end) follows, so `'the model's answer'` reads.
   * Strict: a straight quote closes only its own kind, a smart one on either smart twin (so an
   * apostrophe inside "the model's answer" or “the model’s answer” is just text), and a newline
   * ends the string (as an error).
   */
  private stopOf(open: string, family: string): number {
    if (this.lenient) {
      return this.index.nextStop(`lenient${open}`, this.pos, family, (i) =>
        this.index.closerFollows(i),
      );
    }
    const closers = SMART_QUOTES.includes(open) ? family.replace(/["']/, "") : open;
    return this.index.nextStop(open, this.pos, `${closers}\n`);
  }

  private tripleEnd(open: string): number {
    const quotes = open.repeat(3);
    for (let i = this.src.indexOf(quotes, this.pos); i >= 0; i = this.src.indexOf(quotes, i + 1)) {
      if (!this.index.escaped(i)) return i;
    }
    return -1;
  }

  private escape(): string | undefined {
    const next = this.peek(1);
    if (next === "") {
      this.pos++;
      return this.fail("a string is not closed");
    }
    const hexLength = next === "u" ? 4 : next === "U" ? 8 : next === "x" ? 2 : 0;
    if (hexLength > 0) {
      const hex = this.src.slice(this.pos + 2, this.pos + 2 + hexLength);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length < hexLength) {
        this.pos = Math.min(this.pos + 2 + hexLength, this.src.length);
        return this.fail(`a bad \\${next} escape near offset ${this.pos}`);
      }
      this.pos += 2 + hexLength;
      const code = parseInt(hex, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
    }
    this.pos += 2;
    if (next === "\n") return ""; // backslash-newline continues the line
    // Python keeps unknown escapes such as `\d` as written.
    return SIMPLE_ESCAPES[next] ?? `\\${next}`;
  }

  private number(): number | undefined {
    const re = /[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
    re.lastIndex = this.pos;
    const match = re.exec(this.src);
    if (!match) return this.fail(`unexpected '${this.peek()}' at offset ${this.pos}`);
    this.pos += match[0].length;
    return Number(match[0]);
  }

  private word(): PyValue | undefined {
    const re = /[A-Za-z_][A-Za-z0-9_]*/y;
    re.lastIndex = this.pos;
    const word = re.exec(this.src)?.[0] ?? "";
    this.pos += word.length;
    const value = WORDS[word.toLowerCase()];
    return value === undefined ? this.fail(`unexpected word '${word}'`) : value;
  }
}

function attempt(index: TextIndex, open: number, lenient: boolean): ListRead {
  const reader = new Reader(index, open, lenient);
  const value = reader.list(0);
  if (value !== undefined) return { ok: true, value, end: reader.pos };
  const error = reader.error ?? { reason: "unreadable list", truncated: false };
  const failures = index.failures[lenient ? "lenient" : "strict"];
  failures.setAll(reader.entryStarts, error);
  return { ok: false, ...error, items: reader.topItems };
}

/**
 * Reads the list literal whose `[` is at `open` in `src`: strict Python rules first, then lenient
 * quotes (unescaped apostrophes). JSON arrays are Python literals too (with true/false/null and JSON
 * escapes accepted), so this is also the JSON fallback. On failure, `items` holds the complete
 * top-level entries. Pass one `TextIndex` for many reads in the same text: that keeps them linear.
 */
export function readPyList(src: string | TextIndex, open: number): ListRead {
  const index = typeof src === "string" ? new TextIndex(src) : src;
  const strict = attempt(index, open, false);
  if (strict.ok) return strict;
  const lenient = attempt(index, open, true);
  if (lenient.ok) return lenient;
  // A strict read that ran off the end is the clearest story (truncation); otherwise prefer whichever
  // attempt saw the input ending, then the strict reason.
  if (strict.truncated || !lenient.truncated) return strict;
  return lenient;
}
