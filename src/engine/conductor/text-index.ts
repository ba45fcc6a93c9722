/**
 * Lookups over one Conductor output that the list reader needs many times, each built once in
 * linear time on first use. They keep parsing linear in the output's length even when a repetition
 * loop puts thousands of labels in it and every list read would otherwise scan to the end.
 *
 * Whether a character is escaped does not depend on where a string started: a string opens at a
 * quote, which is never a backslash, so the run of backslashes before any later character lies
 * inside the string and its parity is the same for every reader.
 */
export class TextIndex {
  private escapedAt: Uint8Array | undefined;
  private readonly nextStops = new Map<string, Int32Array>();
  private lineStarts: number[] | undefined;
  /**
   * Failed list reads by mode: from each position where a read stood at the start of a top-level
   * entry, the rest of that read is the same for any read that gets there, so it fails the same way.
   */
  readonly failures = {
    strict: new Map<number, { reason: string; truncated: boolean }>(),
    lenient: new Map<number, { reason: string; truncated: boolean }>(),
  };

  constructor(readonly src: string) {}

  /** Whether the character at `i` follows an unescaped backslash. */
  escaped(i: number): boolean {
    if (!this.escapedAt) {
      const src = this.src;
      const out = new Uint8Array(src.length + 1);
      for (let j = 1; j <= src.length; j++) {
        out[j] = src.charCodeAt(j - 1) === 92 && out[j - 1] === 0 ? 1 : 0;
      }
      this.escapedAt = out;
    }
    return this.escapedAt[i] === 1;
  }

  /**
   * The first position >= `from` of an unescaped character for which the predicate holds, or -1.
   * One table per `key`, built on first use from the predicate that `predicate` returns.
   */
  nextStop(
    key: string,
    from: number,
    predicate: () => (i: number) => boolean,
    escapedToo = false,
  ): number {
    let next = this.nextStops.get(key);
    if (!next) {
      const isStop = predicate();
      const n = this.src.length;
      next = new Int32Array(n + 1);
      next[n] = -1;
      for (let i = n - 1; i >= 0; i--) next[i] = (escapedToo || !this.escaped(i)) && isStop(i) ? i : next[i + 1]!;
      this.nextStops.set(key, next);
    }
    return from >= this.src.length ? -1 : next[from]!;
  }

  /** The first backslash at or after `from`, or -1. */
  nextBackslash(from: number): number {
    return this.nextStop("\\", from, () => (i) => this.src.charCodeAt(i) === 92, true);
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
