/**
 * A projection of a GGUF model's speed on this device before it is downloaded, from a speed test
 * of a smaller model measured here. Decoding reads every weight once per token, so its speed
 * falls in proportion to the file's size; prefill is bound by arithmetic, which grows with the
 * parameter count, and within one quantisation (Q4_K_M here) the file size is proportional to
 * that too. So both figures scale by (measured model's bytes / target's bytes). It is an estimate:
 * caches, threads and a GPU's memory change the real figure, and a model measured here under
 * 50 MB is mostly fixed costs, which would make the projection far too slow.
 */
import type { GgufStats } from "./backend.ts";

/** Below this size a measured model's speed says little about a larger one's. */
export const MIN_PROBE_BYTES = 50e6;

/** A speed test measured on this device, with the size of the model it ran. */
export interface SpeedProbe {
  modelName: string;
  modelBytes: number;
  stats: GgufStats;
}

export type SpeedEstimate =
  ({ ok: true } & GgufStats) | { ok: false; code: "probe_too_small" | "no_probe" };

/** The projected speed of a model of `targetBytes` on the device `probe` was measured on. */
export function estimateSpeed(probe: SpeedProbe | null, targetBytes: number): SpeedEstimate {
  if (!probe) return { ok: false, code: "no_probe" };
  if (probe.modelBytes < MIN_PROBE_BYTES) return { ok: false, code: "probe_too_small" };
  const scale = probe.modelBytes / targetBytes;
  return {
    ok: true,
    prefillTokensPerSec: probe.stats.prefillTokensPerSec * scale,
    decodeTokensPerSec: probe.stats.decodeTokensPerSec * scale,
  };
}
