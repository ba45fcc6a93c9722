/**
 * Lookups over one Conductor output that the list reader needs many times. They keep parsing linear
 * in the output's length even when a repetition loop puts thousands of labels in it and every list
 * read would otherwise scan to the end: each search remembers the span it crossed, and reads move
 * forward through the text, so no stretch is searched twice in a row. Nothing is allocated per
 * character (large typed arrays cost more in garbage collection than they save).
 *
 * Whether a character is escaped does not depend on where a string started: a string opens at a
 * quote, which is never a backslash, so the run of backslashes before any later character lies
 * inside the string and its parity is the same for every reader.
 */
export class TextIndex {
  /** Per search key: the last span searched, [from, stop], in which the next stop is `stop`. */
  private readonly spans = new Map<string, { from: number; stop: number }>();
  private lineStarts: number[] | undefined;
  /**
   * Failed list reads by mode: from each position where a read stood at the start of a top-level
   * entry, the rest of that read is the same for any read that gets there, so it fails the same way.
   */
  readonly failures = { strict: new FailureMap(), lenient: new FailureMap() };

  constructor(readonly src: string) {}

  /** Whether the character at `i` follows an unescaped backslash (an odd run of backslashes). */
  escaped(i: number): boolean {
    let j = i - 1;
    while (j >= 0 && this.src.charCodeAt(j) === 92) j--;
    return (i - 1 - j) % 2 === 1;
  }

  /**
   * The first position >= `from` of an unescaped character in `chars` (at most four, each one
   * UTF-16 unit) for which `accept` (if given) holds, or -1. `key` names the search (same chars
   * and accept each time).
   */
  nextStop(
    key: string,
    from: number,
    chars: string,
    accept?: (i: number) => boolean,
    escapedToo = false,
  ): number {
    const src = this.src;
    if (from >= src.length) return -1;
    const span = this.spans.get(key);
    if (span && from >= span.from && (span.stop < 0 || from <= span.stop)) return span.stop;
    let stop = -1;
    const a = chars.charCodeAt(0);
    const b = chars.length > 1 ? chars.charCodeAt(1) : a;
    const c = chars.length > 2 ? chars.charCodeAt(2) : a;
    const d = chars.length > 3 ? chars.charCodeAt(3) : a;
    for (let i = from; i < src.length; i++) {
      const code = src.charCodeAt(i);
      if (code !== a && code !== b && code !== c && code !== d) continue;
      if (
        chars.includes(src.charAt(i)) &&
        (escapedToo || !this.escaped(i)) &&
        (!accept || accept(i))
      ) {
        stop = i;
        break;
      }
    }
    const joined = span && span.stop === stop && span.from < from;
    this.spans.set(key, { from: joined ? span.from : from, stop });
    return stop;
  }

  /** The first backslash at or after `from`, or -1. */
  nextBackslash(from: number): number {
    return this.nextStop("\\", from, "\\", undefined, true);
  }

  /** Whether the text after `i` (spaces skipped) starts with `,`, `]` or `)`, or is empty. */
  closerFollows(i: number): boolean {
    let j = i + 1;
    const src = this.src;
    while (j < src.length && /\s/.test(src.charAt(j))) j++;
    return j >= src.length || /[,\])]/.test(src.charAt(j));
  }

  /** The 1-based line of `offset`. */
  lineOf(offset: number): number {
    if (!this.lineStarts) {
      const starts = [0];
      for (let i = this.src.indexOf("\n"); i >= 0; i = this.src.indexOf("\n", i + 1)) {
        starts.push(i + 1);
      }
      this.lineStarts = starts;
    }
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}

/** Read errors by text position, for `TextIndex.failures`. */
export class FailureMap {
  private readonly at = new Map<number, { reason: string; truncated: boolean }>();

  get(pos: number): { reason: string; truncated: boolean } | undefined {
    return this.at.get(pos);
  }

  /** Records `error` at every position of `positions`. */
  setAll(positions: readonly number[], error: { reason: string; truncated: boolean }) {
    for (const pos of positions) this.at.set(pos, error);
  }
}
