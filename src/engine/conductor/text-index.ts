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
  readonly failures = { strict: new FailureMap(), lenient: new FailureMap() };

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
   * The first position >= `from` of an unescaped character in `chars` for which `accept` (if
   * given) holds, or -1. One table per `key`, built on first use.
   */
  nextStop(
    key: string,
    from: number,
    chars: string,
    accept?: (i: number) => boolean,
    escapedToo = false,
  ): number {
    let next = this.nextStops.get(key);
    if (!next) {
      const src = this.src;
      const n = src.length;
      const codes = [...chars].map((c) => c.charCodeAt(0));
      next = new Int32Array(n + 1);
      next[n] = -1;
      for (let i = n - 1; i >= 0; i--) {
        const stop =
          codes.includes(src.charCodeAt(i)) &&
          (escapedToo || !this.escaped(i)) &&
          (!accept || accept(i));
        next[i] = stop ? i : next[i + 1]!;
      }
      this.nextStops.set(key, next);
    }
    return from >= this.src.length ? -1 : next[from]!;
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

/** Read errors by text position, for `TextIndex.failures` (a typed array: cheap for many entries). */
export class FailureMap {
  private at: Int32Array | undefined;
  private readonly errors: { reason: string; truncated: boolean }[] = [];

  get(pos: number): { reason: string; truncated: boolean } | undefined {
    const i = this.at?.[pos] ?? 0;
    return i > 0 ? this.errors[i - 1] : undefined;
  }

  /** Records `error` at every position of `positions` (all within a text of `length`). */
  setAll(
    positions: readonly number[],
    error: { reason: string; truncated: boolean },
    length: number,
  ) {
    if (positions.length === 0) return;
    this.at ??= new Int32Array(length + 1);
    const id = this.errors.push(error);
    for (const pos of positions) this.at[pos] = id;
  }
}
