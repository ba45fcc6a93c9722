// "Did you mean": the closest known word to a mistyped command, option, config key or strategy.

/** Edit distance (insertions, deletions, substitutions, and swaps of two neighbours). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  return d[a.length]![b.length]!;
}

/**
 * The known word closest to `word`, or null when none is close enough to be a plausible slip
 * (at most a third of the word's length away, and at least one edit allowed).
 */
export function closest(word: string, known: readonly string[]): string | null {
  const w = word.toLowerCase();
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const k of known) {
    const kl = k.toLowerCase();
    // A prefix is a strong hint ("--max" for "--max-steps"), as is a case-only difference.
    const distance = kl === w ? 0 : kl.startsWith(w) && w.length >= 3 ? 1 : editDistance(w, kl);
    if (distance < bestDistance) [best, bestDistance] = [k, distance];
  }
  const allowed = Math.max(1, Math.floor(Math.max(w.length, 3) / 3));
  return best !== null && bestDistance <= allowed ? best : null;
}

/** ` (did you mean "x"?)` for the closest known word, or "". */
export function didYouMean(word: string, known: readonly string[], quote = '"'): string {
  const hit = closest(word, known);
  return hit ? ` (did you mean ${quote}${hit}${quote}?)` : "";
}

/** The `--long` option names a help text mentions: the options a command documents. */
export function optionsIn(help: string): string[] {
  return [...new Set(help.match(/--[a-z][a-z0-9-]*/g) ?? [])];
}

/**
 * A node:util parseArgs error as a message for the user, with the closest documented option for an
 * unknown one; null for anything that is not a parseArgs error.
 */
export function explainParseArgsError(e: unknown, known: readonly string[]): string | null {
  if (!(e instanceof TypeError) || !("code" in e) || !String(e.code).startsWith("ERR_PARSE_ARGS"))
    return null;
  const unknown = /Unknown option '(-{1,2}[^']+)'/.exec(e.message)?.[1];
  if (unknown) return `Unknown option '${unknown}'${didYouMean(unknown, known, "")}.`;
  return e.message;
}
