/**
 * A small, tolerant reader for the Python list literals a Conductor writes (SPEC 1.3): strings in
 * single, double or triple quotes with escapes, smart quotes as delimiters, integers, nested lists,
 * trailing commas, `#` comments, and everything JSON allows in an array. It never evaluates anything
 * and never throws on model output.
 */

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

  constructor(
    private readonly src: string,
    start: number,
    /** Lenient: a quote closes a string only when `,` `]` or `)` follows, so `'the model's answer'` reads. */
    private readonly lenient: boolean,
  ) {
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
    for (;;) {
      this.skipSpace();
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
    let out = "";
    while (this.pos < this.src.length) {
      const c = this.peek();
      if (c === "\\") {
        const escaped = this.escape();
        if (escaped === undefined) return undefined;
        out += escaped;
        continue;
      }
      if (triple) {
        if (this.src.startsWith(open.repeat(3), this.pos)) {
          this.pos += 3;
          return out;
        }
      } else if (this.closes(open, family, c)) {
        this.pos++;
        return out;
      } else if (c === "\n" && !this.lenient) {
        return this.fail(`a string is not closed before the end of line ${this.lineOf(this.pos)}`);
      }
      out += c;
      this.pos++;
    }
    return this.fail("a string is not closed");
  }

  private closes(open: string, family: string, c: string): boolean {
    if (this.lenient) {
      if (!family.includes(c)) return false;
      const rest = this.src.slice(this.pos + 1).trimStart();
      return rest === "" || /^[,\])]/.test(rest);
    }
    // Strict: a straight quote closes only its own kind; a smart quote closes on either smart twin,
    // so an apostrophe inside "the model's answer" or “the model’s answer” is just text.
    if (SMART_QUOTES.includes(open)) return SMART_QUOTES.includes(c) && family.includes(c);
    return c === open;
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

  private lineOf(offset: number): number {
    return this.src.slice(0, offset).split("\n").length;
  }
}

function attempt(src: string, open: number, lenient: boolean): ListRead {
  const reader = new Reader(src, open, lenient);
  const value = reader.list(0);
  if (value !== undefined) return { ok: true, value, end: reader.pos };
  const error = reader.error ?? { reason: "unreadable list", truncated: false };
  return { ok: false, ...error, items: reader.topItems };
}

/**
 * Reads the list literal whose `[` is at `open` in `src`: strict Python rules first, then lenient
 * quotes (unescaped apostrophes). JSON arrays are Python literals too (with true/false/null and JSON
 * escapes accepted), so this is also the JSON fallback. On failure, `items` holds the complete
 * top-level entries.
 */
export function readPyList(src: string, open: number): ListRead {
  const strict = attempt(src, open, false);
  if (strict.ok) return strict;
  const lenient = attempt(src, open, true);
  if (lenient.ok) return lenient;
  // A strict read that ran off the end is the clearest story (truncation); otherwise prefer whichever
  // attempt saw the input ending, then the strict reason.
  if (strict.truncated || !lenient.truncated) return strict;
  return lenient;
}
