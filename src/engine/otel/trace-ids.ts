/**
 * Trace and span ids derived from what a run record already names (its id, a round, a step, an
 * attempt), so exporting the same run twice gives the same trace: a collector that receives it
 * again overwrites or deduplicates it instead of showing it twice. FNV-1a 64 over UTF-8 is enough:
 * the ids only need to be stable and spread, not secret.
 */

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

function fnv1a64(text: string, seed = FNV_OFFSET): bigint {
  let h = seed;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= BigInt(byte);
    h = (h * FNV_PRIME) & MASK;
  }
  return h;
}

function hex64(n: bigint): string {
  // An all-zero id is invalid in OTLP; FNV practically never gives 0, but guard the invariant.
  return (n === 0n ? 1n : n).toString(16).padStart(16, "0");
}

/** The 32-hex-digit trace id of a run. */
export function traceIdOf(runId: string): string {
  return hex64(fnv1a64(`trace:${runId}`)) + hex64(fnv1a64(`trace:${runId}`, fnv1a64(runId)));
}

/** The 16-hex-digit id of the span at `path` (e.g. "r0/s2/a1") in the run `runId`. */
export function spanIdOf(runId: string, path: string): string {
  return hex64(fnv1a64(`span:${runId}:${path}`));
}
