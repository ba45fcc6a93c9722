// Values worked by hand: McNemar from the binomial sums, pass@k from the binomial coefficients,
// bootstrap intervals where every resample's outcome can be enumerated.
import { describe, expect, it } from "vitest";
import { bootstrapMeanInterval, quantile, resampledMean } from "./bootstrap.ts";
import { majorityCorrect, mcnemarExact, passAtK } from "./exact.ts";
import { detectable, pairedDifference } from "./paired.ts";
import { pick, seededRandom } from "./rng.ts";

const S = { seed: 7, resamples: 4000, level: 0.95 };

describe("exact McNemar", () => {
  it.each([
    // b, c, p: 2 * sum_{i<=min} C(n,i) / 2^n, capped at 1
    [0, 0, 1],
    [1, 0, 1], // 2 * 1/2
    [5, 0, 0.0625], // 2 * 1/32
    [0, 6, 0.03125], // 2 * 1/64
    [8, 2, 0.109375], // 2 * (1 + 10 + 45) / 1024
    [3, 3, 1], // 2 * 42/64 > 1
    [10, 4, 0.1795654296875], // 2 * (1+14+91+364+1001) / 16384
  ])("b = %i, c = %i gives p = %f", (b, c, p) => {
    expect(mcnemarExact(b, c)).toBeCloseTo(p, 12);
  });

  it("is symmetric in b and c and stays finite for large counts", () => {
    expect(mcnemarExact(2, 8)).toBe(mcnemarExact(8, 2));
    const p = mcnemarExact(600, 520);
    expect(p).toBeGreaterThan(0.01);
    expect(p).toBeLessThan(0.03);
  });
});

describe("pass@k (Chen et al. 2021)", () => {
  it.each([
    [2, 1, 1, 0.5], // 1 - C(1,1)/C(2,1)
    [5, 2, 2, 0.7], // 1 - C(3,2)/C(5,2) = 1 - 3/10
    [10, 3, 5, 1 - 21 / 252], // 1 - C(7,5)/C(10,5)
    [4, 0, 2, 0],
    [4, 3, 2, 1], // fewer than k wrong: a right one is always drawn
    [4, 1, 1, 0.25], // pass@1 is the fraction right
  ])("n = %i, c = %i, k = %i gives %f", (n, c, k, v) => {
    expect(passAtK(n, c, k)).toBeCloseTo(v, 12);
  });

  it("refuses k above n", () => {
    expect(() => passAtK(2, 1, 3)).toThrow(RangeError);
    expect(() => passAtK(2, 1, 0)).toThrow(RangeError);
  });
});

describe("maj@k", () => {
  it("follows the most frequent answer, ties to the first seen", () => {
    const s = (answer: string | null, correct: boolean) => ({ answer, correct });
    expect(majorityCorrect([s("7", true), s("8", false), s("8", false)])).toBe(false);
    expect(majorityCorrect([s("7", true), s("7", true), s("8", false)])).toBe(true);
    expect(majorityCorrect([s("8", false), s("7", true)])).toBe(false);
    expect(majorityCorrect([s("7", true), s("8", false)])).toBe(true);
    expect(majorityCorrect([s(" 7", true), s("7 ", true), s("8", false)])).toBe(true);
    expect(majorityCorrect([])).toBeNull();
  });
});

describe("bootstrap intervals", () => {
  it("is degenerate when every value is the same", () => {
    expect(bootstrapMeanInterval([[1], [1, 1], [1]], S)).toEqual({ lo: 1, hi: 1 });
    expect(bootstrapMeanInterval([], S)).toBeNull();
    expect(bootstrapMeanInterval([[]], S)).toBeNull();
  });

  it("resamples questions: two questions 0 and 1 give means 0, 1/2, 1 (1/4, 1/2, 1/4)", () => {
    // P(mean = 0) = 1/4 > 2.5%, so both percentiles sit on the ends.
    expect(bootstrapMeanInterval([[0], [1]], S)).toEqual({ lo: 0, hi: 1 });
    // Ten questions, one right: P(no right question drawn) = 0.9^10 = 0.35, so lo = 0.
    const ten = [[1], ...Array.from({ length: 9 }, () => [0])];
    const ci = bootstrapMeanInterval(ten, S)!;
    expect(ci.lo).toBe(0);
    // P(3 or more of 10 draws are the right one) = 0.07 and P(4+) = 0.0128: hi is 0.3.
    expect(ci.hi).toBeCloseTo(0.3, 10);
  });

  it("resamples repeats within a question", () => {
    // One question, samples [0, 1]: each resample's mean is 0, 1/2 or 1; without resampling the
    // repeats it would always be 1/2.
    expect(bootstrapMeanInterval([[0, 1]], S)).toEqual({ lo: 0, hi: 1 });
    const random = seededRandom(1);
    const seen = new Set(Array.from({ length: 200 }, () => resampledMean([0, 1], random)));
    expect([...seen].sort()).toEqual([0, 0.5, 1]);
  });

  it("is reproducible from its seed", () => {
    const groups = [[1, 0], [1], [0, 0, 1], [1, 1], [0]];
    const a = bootstrapMeanInterval(groups, S);
    expect(bootstrapMeanInterval(groups, S)).toEqual(a);
    const others = [1, 2, 3, 4].map((seed) => bootstrapMeanInterval(groups, { ...S, seed }));
    expect(others.some((o) => o!.lo !== a!.lo || o!.hi !== a!.hi)).toBe(true);
    expect(a!.lo).toBeLessThan(0.5);
    expect(a!.hi).toBeGreaterThan(0.5);
  });

  it("takes percentiles by linear interpolation between ranks", () => {
    expect(quantile([0, 10], 0.25)).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5], 0.5)).toBe(3);
    expect(quantile([1, 2, 3, 4, 5], 0.975)).toBeCloseTo(4.9, 12);
  });

  it("draws uniformly from its seeded generator", () => {
    const random = seededRandom(42);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[pick(random, 4)]!++;
    for (const c of counts) expect(Math.abs(c - 1000)).toBeLessThan(120);
    expect(seededRandom(5)()).toBe(seededRandom(5)());
    expect(seededRandom(5)()).not.toBe(seededRandom(6)());
  });
});

describe("paired comparison", () => {
  const one = (a: number, b: number) => ({ a: [a], b: [b] });

  it("uses exact McNemar with one sample each and counts the discordant questions", () => {
    // 6 questions only a got right, none only b: McNemar p = 2/64; difference 6/10.
    const pairs = [
      ...Array.from({ length: 6 }, () => one(1, 0)),
      ...Array.from({ length: 3 }, () => one(1, 1)),
      one(0, 0),
    ];
    const d = pairedDifference(pairs, S)!;
    expect(d.test).toBe("mcnemar");
    expect(d.questions).toBe(10);
    expect(d.difference).toBeCloseTo(0.6, 12);
    expect(d.discordant).toEqual({ aOnly: 6, bOnly: 0 });
    expect(d.p).toBeCloseTo(0.03125, 12);
    expect(d.interval.lo).toBeGreaterThan(0);
    expect(d.interval.hi).toBeLessThanOrEqual(1);
    expect(detectable(d)).toBe(true);
  });

  it("finds nothing where the strategies agree on every question", () => {
    const d = pairedDifference([one(1, 1), one(0, 0), one(1, 1)], S)!;
    expect(d).toMatchObject({ difference: 0, p: 1, interval: { lo: 0, hi: 0 } });
    expect(detectable(d)).toBe(false);
  });

  it("with repeats, uses the paired bootstrap's two-sided p-value", () => {
    // a is always right, b always wrong, on 8 questions with 2 repeats: every resample's difference
    // is 1, so no resample is <= 0 and p = 1 / (B + 1).
    const pairs = Array.from({ length: 8 }, () => ({ a: [1, 1], b: [0, 0] }));
    const d = pairedDifference(pairs, S)!;
    expect(d.test).toBe("paired-bootstrap");
    expect(d.discordant).toBeNull();
    expect(d.p).toBeCloseTo(1 / 4001, 12);
    expect(d.interval).toEqual({ lo: 1, hi: 1 });
    // b ahead on the same data reversed: the sign follows a - b.
    const r = pairedDifference(
      pairs.map((q) => ({ a: q.b, b: q.a })),
      S,
    )!;
    expect(r.difference).toBe(-1);
    expect(detectable(r)).toBe(true);
  });

  it("leaves out questions either strategy has no verdict on", () => {
    const d = pairedDifference([one(1, 0), { a: [], b: [1] }, { a: [1], b: [] }], S)!;
    expect(d.questions).toBe(1);
    expect(pairedDifference([{ a: [], b: [1] }], S)).toBeNull();
  });
});
