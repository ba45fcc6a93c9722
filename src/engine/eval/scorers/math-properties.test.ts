// Properties of math v3's equivalence, checked on generated answers (fast-check, fixed seed so
// a failure is reproducible): reflexive, symmetric, invariant under the forms the default profile
// reads as one, never right beyond a profile's tolerance, and never reading a number from the
// question or the reasoning when a final answer is marked.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MathProfile } from "./math-profiles.ts";
import { MathProfileSchema } from "./math-profiles.ts";
import { compareMath, mathScorerV2 } from "./math-v2.ts";

const RUNS = { numRuns: 40, seed: 37 };
const PROFILES = MathProfileSchema.options;
const same = async (answer: string, reference: string, profile: MathProfile = "default") =>
  (await compareMath(`\\boxed{${answer}}`, reference, { profile })).correct;

const int = fc.integer({ min: -999, max: 999 });
const fraction = fc
  .tuple(int, fc.integer({ min: 2, max: 40 }))
  .map(([n, d]) => [`\\frac{${n}}{${d}}`, `${n}/${d}`] as const);
/** One value written in some notation, as a model or a dataset writes answers. */
const answer = fc.oneof(
  int.map(String),
  fc.double({ min: -1e4, max: 1e4, noNaN: true }).map((x) => x.toFixed(3)),
  fraction.map(([latex]) => latex),
  fc.array(int, { minLength: 2, maxLength: 4 }).map((xs) => `\\{${xs.join(", ")}\\}`),
  fc.array(int, { minLength: 2, maxLength: 4 }).map((xs) => `(${xs.join(", ")})`),
  fc.tuple(int, int).map(([a, b]) => `[${Math.min(a, b)}, ${Math.max(a, b) + 1})`),
  fc.constantFrom("\\sqrt{2}", "2\\pi", "x^2 + 1", "\\text{odd}", "x < 3", "y = 2x + 1"),
);

describe("math equivalence properties", () => {
  it("is reflexive in every profile", async () => {
    await fc.assert(
      fc.asyncProperty(answer, fc.constantFrom(...PROFILES), async (a, profile) => {
        expect(await same(a, a, profile)).toBe(true);
      }),
      RUNS,
    );
  }, 60_000);

  it("is symmetric in every profile", async () => {
    // pairs that are often equal: a value against another notation of a nearby value
    const pair = fc.oneof(
      fc.tuple(answer, answer),
      fraction.map(([latex, plain]) => [latex, plain] as const),
      fc
        .tuple(int, fc.integer({ min: 0, max: 2 }))
        .map(([n, d]) => [`${n}`, `${n + d}.000`] as const),
      fc.integer({ min: 0, max: 1000 }).map((n) => [`${n}\\%`, `${n / 100}`] as const),
    );
    await fc.assert(
      fc.asyncProperty(pair, fc.constantFrom(...PROFILES), async ([a, b], profile) => {
        expect(await same(a, b, profile)).toBe(await same(b, a, profile));
      }),
      RUNS,
    );
  }, 60_000);

  it("does not depend on brackets, the order of a set, a time's notation or a matrix as a list", async () => {
    const set = fc.uniqueArray(int, { minLength: 2, maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(set, fc.integer({ min: 1, max: 1000 }), async (xs, seed) => {
        const shuffled = [...xs].sort((p, q) => ((p * seed) % 97) - ((q * seed) % 97));
        expect(await same(`\\{${shuffled.join(", ")}\\}`, `\\{${xs.join(", ")}\\}`)).toBe(true);
        expect(await same(`[${xs[0]}]`, `${xs[0]}`)).toBe(true);
        const column = `\\begin{pmatrix}${xs.join("\\\\")}\\end{pmatrix}`;
        expect(await same(column, `(${xs.join(", ")})`)).toBe(true);
        expect(await same(column, `[${xs.join(", ")}]`)).toBe(true);
      }),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 24 * 60 - 1 }), async (minute) => {
        const [h, m] = [Math.floor(minute / 60), minute % 60];
        const mm = String(m).padStart(2, "0");
        const twelve = `${h % 12 === 0 ? 12 : h % 12}:${mm} ${h < 12 ? "A.M." : "P.M."}`;
        const gold = `${h}:${mm}`;
        expect(await same(twelve, gold)).toBe(true);
        expect(await same(`${gold}:00`, gold)).toBe(true);
        expect(await same(`${h}:${String((m + 1) % 60).padStart(2, "0")}`, gold)).toBe(false);
      }),
      RUNS,
    );
  }, 60_000);

  it("never scores right a number beyond the profile's tolerance", async () => {
    // default, math-verify: 1e-9 relative, or 6 places when a side is a decimal; qwen-math 1e-4
    // relative (its x100 and /100 forms aside); strict 1e-12; minerva compares strings.
    const tolerance: Record<MathProfile, (g: number) => number> = {
      default: (g) => Math.max(1e-6, 1e-9 * Math.abs(g)),
      "math-verify": (g) => Math.max(1e-6, 1e-9 * Math.abs(g)),
      "qwen-math": (g) => 1e-4 * Math.max(1, Math.abs(g)),
      minerva: () => 0,
      strict: (g) => 1e-12 * Math.max(1, Math.abs(g)),
    };
    const gold = fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((g) => Number(g.toFixed(4)));
    await fc.assert(
      fc.asyncProperty(
        gold,
        fc.double({ min: 2, max: 1e3, noNaN: true }),
        fc.boolean(),
        fc.constantFrom(...PROFILES),
        async (g, factor, up, profile) => {
          const d = factor * Math.max(tolerance[profile](g), 1e-4);
          const a = up ? g + d : g - d;
          if (
            profile === "qwen-math" &&
            [g * 100, g / 100].some((s) => Math.abs(a - s) <= 1e-3 * Math.max(1, Math.abs(s)))
          )
            return;
          expect(await same(a.toFixed(8), String(g), profile)).toBe(false);
        },
      ),
      RUNS,
    );
  }, 60_000);

  it("reads the marked final answer, never a number of the question or the reasoning", async () => {
    const scorer = mathScorerV2();
    const numbers = fc.array(fc.integer({ min: -500, max: 500 }), { minLength: 1, maxLength: 6 });
    const marker = fc.constantFrom(
      (x: number) => `\\boxed{${x}}`,
      (x: number) => `Final Answer: The final answer is $${x}$. I hope it is correct.`,
      (x: number) => `<answer>${x}</answer>`,
      (x: number) => `Answer: ${x}`,
    );
    await fc.assert(
      fc.asyncProperty(
        numbers,
        numbers,
        fc.integer({ min: 1000, max: 2000 }),
        marker,
        async (q, r, x, mark) => {
          const question = `Add ${q.join(", ")} and then some.`;
          const reply = `We compute ${r.join(" + ")} = ${r.reduce((s, v) => s + v, 0)}.\n${mark(x)}\nSo ${q[0]} was a distractor.`;
          const got = await scorer.score(
            reply,
            { question, expected: String(x) },
            new AbortController().signal,
          );
          expect(got.extracted).toBe(String(x));
          expect(got.correct).toBe(true);
        },
      ),
      RUNS,
    );
  }, 60_000);
});
