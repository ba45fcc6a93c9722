import type { GgufCatalogueEntry } from "../../engine/llm/gguf/catalogue.ts";
import { GGUF_CATALOGUE } from "../../engine/llm/gguf/catalogue.ts";
import type { SpeedProbe } from "../../engine/llm/gguf/speed-estimate.ts";
import { MIN_PROBE_BYTES, estimateSpeed } from "../../engine/llm/gguf/speed-estimate.ts";
import { formatMB as mb } from "./DownloadConfirm.tsx";

/** A typical plan: the Conductor's prompt with a pool of workers, and the plan it writes. */
const PLAN_PROMPT_TOKENS = 1800;
const PLAN_OUTPUT_TOKENS = 150;

/** The smallest catalogue model: the one to measure before a larger download. */
const SMALLEST = GGUF_CATALOGUE.reduce((a, b) => (b.downloadMB < a.downloadMB ? b : a));

/** A catalogue model's download size as shown: marked approximate unless it was checked. */
export function sizeText(entry: GgufCatalogueEntry): string {
  return entry.sizeVerified ? mb(entry.downloadMB) : `about ${mb(entry.downloadMB)}`;
}

/**
 * The projected speed of a catalogue model on this device, before its download: from the last
 * speed test here, scaled by file size (speed-estimate.ts), and said to be an estimate.
 */
export function GgufEstimate({
  entry,
  probe,
}: {
  entry: GgufCatalogueEntry;
  probe: SpeedProbe | null;
}) {
  const estimate = estimateSpeed(probe, entry.downloadMB * 1e6);
  let text: string;
  if (estimate.ok && probe) {
    const { prefillTokensPerSec: prefill, decodeTokensPerSec: decode } = estimate;
    const planSeconds = PLAN_PROMPT_TOKENS / prefill + PLAN_OUTPUT_TOKENS / decode;
    text =
      `Estimate for ${entry.label} on this device: prefill ≈ ${prefill.toFixed(1)} tok/s, ` +
      `decode ≈ ${decode.toFixed(1)} tok/s, so a plan takes about ${Math.round(planSeconds)} s. ` +
      `Method: your speed test of ${probe.modelName} (${mb(probe.modelBytes / 1e6)}) here, scaled ` +
      `by file size (each token reads every weight); an estimate, not a measurement. Load the ` +
      `model and run the speed test for the measured figures.`;
  } else if (!estimate.ok && estimate.code === "probe_too_small" && probe) {
    text =
      `Your speed test ran ${probe.modelName} (${mb(probe.modelBytes / 1e6)}), too small to ` +
      `project from: fixed costs dominate below ${mb(MIN_PROBE_BYTES / 1e6)}. Load a small real ` +
      `model (${SMALLEST.label} is ${sizeText(SMALLEST)}) and run its speed test to see an estimate ` +
      `for this one before its download.`;
  } else {
    text =
      `Speed on this device: not measured yet. To see an estimate before this ` +
      `${sizeText(entry)} download, load a small model first (${SMALLEST.label} is ` +
      `${sizeText(SMALLEST)}) and run its speed test; larger ones are projected from it.`;
  }
  return (
    <p className="small muted" data-testid="gguf-estimate">
      {text}
    </p>
  );
}
