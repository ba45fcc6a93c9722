/**
 * The one id helper: steps, workers, runs and evaluations get ids of one form,
 * `<prefix>-<time>-<sequence><random>`. The time (milliseconds, base 36, fixed width until 2059)
 * makes ids sort by creation; the sequence keeps ids made in the same millisecond on this page
 * apart; the random part keeps them apart from ids made in another session (an imported file, a
 * pasted document, another tab).
 */

/** What an id names; its prefix says so in files and logs. */
type IdKind = "s" | "w" | "run" | "eval";

let sequence = 0;

/** Six base-36 characters from the platform's random source (about 31 bits). */
function randomPart(): string {
  const [n = 0] = crypto.getRandomValues(new Uint32Array(1));
  return n.toString(36).padStart(7, "0").slice(-6);
}

/** A fresh id of `kind`, stamped with `now` (default: the clock). */
export function newId(kind: IdKind, now: number = Date.now()): string {
  sequence += 1;
  return `${kind}-${now.toString(36)}-${sequence.toString(36)}${randomPart()}`;
}
