import { describe, expect, it } from "vitest";
import { estimateSpeed } from "./speed-estimate.ts";

const probe = (modelBytes: number) => ({
  modelName: "qwen2.5-0.5b-instruct-q4_k_m",
  modelBytes,
  stats: { prefillTokensPerSec: 120, decodeTokensPerSec: 30 },
});

describe("estimateSpeed", () => {
  it("scales a measured model's speed by file size: ten times the bytes, a tenth of the speed", () => {
    expect(estimateSpeed(probe(468e6), 4680e6)).toEqual({
      ok: true,
      prefillTokensPerSec: 12,
      decodeTokensPerSec: 3,
    });
  });

  it("projects a smaller model as faster", () => {
    const r = estimateSpeed(probe(1000e6), 500e6);
    expect(r).toMatchObject({ ok: true, decodeTokensPerSec: 60 });
  });

  it("refuses to project from a model too small to measure more than fixed costs", () => {
    expect(estimateSpeed(probe(1e6), 4680e6)).toEqual({ ok: false, code: "probe_too_small" });
  });

  it("says when nothing was measured yet", () => {
    expect(estimateSpeed(null, 4680e6)).toEqual({ ok: false, code: "no_probe" });
  });
});
