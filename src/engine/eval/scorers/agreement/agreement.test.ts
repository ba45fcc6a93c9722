import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compareMath } from "../math-v2.ts";
import type { AgreementCase, Tally } from "./agreement.ts";
import { describeTally, parseFixture, tally } from "./agreement.ts";
import { DISAGREEMENTS } from "./disagreements.ts";
import { FIGURES, PROFILE_FIGURES, TARGETS } from "./figures.ts";
import type { AgreementSource } from "./sources.ts";
import { SOURCES } from "./sources.ts";
import { multipleChoiceScorerV2 } from "../mc-v2.ts";

const read = (file: string): AgreementCase[] =>
  parseFixture(file, readFileSync(new URL(`./${file}.jsonl`, import.meta.url), "utf8"));

const signal = new AbortController().signal;
const MC_QUESTION = "Pick one.\n\nA) a\nB) b\nC) c\nD) d";

async function ours(src: AgreementSource, c: AgreementCase): Promise<boolean | null> {
  if (src.scorer === "math")
    return (await compareMath(c.answer, c.reference, c.options ?? {})).correct;
  const item = { question: c.question ?? MC_QUESTION, expected: c.reference };
  return (await multipleChoiceScorerV2(src.mode).score(c.answer, item, signal)).correct;
}

const tallies = new Map<string, Tally>();

describe("agreement with the public reference graders", () => {
  it.each(SOURCES)(
    "$file ($repo): the figures in figures.ts",
    async (src) => {
      const cases = read(src.file);
      expect(cases.length).toBeGreaterThan(0);
      for (const c of cases) expect(c.source).toBe(src.repo);
      const verdicts = [];
      for (const c of cases) verdicts.push(await ours(src, c));
      const t = tally(cases, verdicts);
      tallies.set(src.file, t);
      expect(describeTally(t)).toBe(describeTally({ ...FIGURES[src.file]!, disagreements: [] }));
      // every disagreement is listed and argued; a listed one that now agrees is struck off
      expect(t.disagreements.sort()).toEqual(
        Object.keys(DISAGREEMENTS)
          .filter((id) => cases.some((c) => c.id === id))
          .sort(),
      );
      // Hundreds of cases through the compute engine (loaded by the first): seconds on a busy machine.
    },
    60_000,
  );

  it("reaches the targets over all sources of each kind", () => {
    for (const kind of ["math", "mc"] as const) {
      const files = SOURCES.filter((s) => s.scorer === kind).map((s) => s.file);
      if (files.length === 0) continue;
      const all = files.map((f) => tallies.get(f)).filter((t) => t !== undefined);
      if (all.length === 0) continue; // that kind's sources were filtered out of this run
      const cases = all.reduce((n, t) => n + t.cases, 0);
      const agreed = all.reduce((n, t) => n + t.agreed, 0);
      expect(agreed / cases).toBeGreaterThanOrEqual(TARGETS[kind]);
    }
  });

  it("lists no disagreement that is not a case, and argues each one", () => {
    const ids = new Set(SOURCES.flatMap((s) => read(s.file).map((c) => c.id)));
    for (const [id, why] of Object.entries(DISAGREEMENTS)) {
      expect(ids.has(id), id).toBe(true);
      expect(why.length, id).toBeGreaterThan(40);
    }
  });

  it("agrees per profile as PROFILE_FIGURES says, over every math source", async () => {
    const cases = SOURCES.filter((s) => s.scorer === "math").flatMap((s) => read(s.file));
    for (const profile of Object.keys(PROFILE_FIGURES) as (keyof typeof PROFILE_FIGURES)[]) {
      let agreed = 0;
      for (const c of cases)
        if (
          (await compareMath(c.answer, c.reference, { ...c.options, profile })).correct ===
          c.expected
        )
          agreed++;
      expect(`${profile}: ${agreed} of ${cases.length}`).toBe(
        `${profile}: ${PROFILE_FIGURES[profile]} of ${cases.length}`,
      );
    }
  }, 120_000);

  it("ids are unique and every case cites a line of its source file", () => {
    const all = SOURCES.flatMap((s) => read(s.file));
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    for (const c of all) expect(c.id.startsWith(`${c.source.split("/")[1]}/`)).toBe(true);
  });
});
