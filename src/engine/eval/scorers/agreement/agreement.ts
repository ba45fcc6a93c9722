/**
 * The agreement suite's case format and its tally. Each fixture line is a case transcribed from a
 * public reference grader's own tests, citing the repository, file and line it came from; it is
 * also a valid `conductor-studio score` input line.
 */
import { z } from "zod";

export const AgreementCaseSchema = z.object({
  id: z.string().min(1),
  source: z.string().min(1),
  file: z.string().min(1),
  line: z.number().int().positive(),
  reference: z.string(),
  answer: z.string(),
  /** What the reference grader decides. */
  expected: z.boolean(),
  question: z.string().optional(),
  options: z.object({ precision: z.number().int().positive().optional() }).optional(),
  note: z.string().optional(),
});
export type AgreementCase = z.infer<typeof AgreementCaseSchema>;

/** Reads a fixture file's lines; a bad line is an error naming it (fixtures are ours). */
export function parseFixture(name: string, text: string): AgreementCase[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l, i) => {
      const r = AgreementCaseSchema.safeParse(JSON.parse(l));
      if (!r.success) throw new Error(`${name} line ${i + 1}: ${r.error.message}`);
      return r.data;
    });
}

export interface Tally {
  cases: number;
  agreed: number;
  disagreements: string[];
}

/** Agreement of our verdicts with the reference grader's, one tally per fixture file. */
export function tally(cases: AgreementCase[], ours: (boolean | null)[]): Tally {
  const disagreements = cases.filter((c, i) => ours[i] !== c.expected).map((c) => c.id);
  return { cases: cases.length, agreed: cases.length - disagreements.length, disagreements };
}

/** "266 cases, 255 agreed (95.9%)". */
export function describeTally(t: Tally): string {
  const pct = t.cases === 0 ? 0 : (100 * t.agreed) / t.cases;
  return `${t.cases} cases, ${t.agreed} agreed (${pct.toFixed(1)}%)`;
}
