/**
 * Detects the repetition loop a small model can fall into (the same sentence, list entry or
 * fragment over and over), so the plan can be stopped with a message that says so instead of
 * running to the token limit.
 */

export interface RepetitionLoop {
  /** The repeated text. */
  unit: string;
  /** How many times it repeats at the end of the output. */
  repeats: number;
}

/** The longest repeated unit looked for, in characters. */
const MAX_PERIOD = 400;
/** A loop must cover at least this many characters at the end of the output... */
const MIN_SPAN = 800;
/** ...and repeat its unit at least this many times. */
const MIN_REPEATS = 8;

/**
 * The loop the output ends in, or undefined: the shortest unit of 1 to 400 characters that the last
 * max(800, 8 x unit) characters repeat exactly. Costs a few thousand character comparisons at most,
 * so a streaming view can call it every few hundred characters.
 */
export function repetitionLoop(text: string): RepetitionLoop | undefined {
  for (let p = 1; p <= MAX_PERIOD; p++) {
    const span = Math.max(MIN_SPAN, MIN_REPEATS * p);
    if (span > text.length) return undefined;
    const tail = text.slice(text.length - span);
    if (tail.slice(p) !== tail.slice(0, span - p)) continue;
    // Extend backwards to count every repeat.
    let start = text.length - span;
    while (start > 0 && text.charCodeAt(start - 1) === text.charCodeAt(start - 1 + p)) start--;
    const unit = text.slice(text.length - p);
    return { unit, repeats: Math.floor((text.length - start) / p) };
  }
  return undefined;
}

/** "the text "…" repeats 120 times", for the error message. */
export function describeLoop(loop: RepetitionLoop): string {
  const shown = loop.unit.length > 60 ? `${loop.unit.slice(0, 60)}…` : loop.unit;
  return `the output ends with ${JSON.stringify(shown)} repeated ${loop.repeats} times.`;
}
