/**
 * The `score` command's data, platform-neutral: input lines `{"id", "answer", "reference",
 * "question"?, "choices"?}` read tolerantly (extra fields are ignored, so the agreement suite's
 * fixtures are valid input), and one output line per case.
 */
import type { Failure } from "../../errors.ts";
import { ErrorCode } from "../../errors.ts";
import { z } from "zod";
import type { Scorer } from "./types.ts";

export const ScoreCaseSchema = z.object({
  id: z.union([z.string().min(1), z.number()]),
  answer: z.string(),
  reference: z.string(),
  question: z.string().optional(),
  choices: z.array(z.string()).optional(),
});
export type ScoreCase = z.infer<typeof ScoreCaseSchema>;

export interface ScoreOutput {
  id: string | number;
  correct: boolean | null;
  extracted: string | null;
  reason: string | null;
  scorer: string;
  version: number;
  /** The grader profile, for scorers that have them (math from version 3). */
  profile?: string;
}

/** The cases of a JSONL text, or the first bad line (1-based) and what is wrong with it. */
export function parseScoreInput(
  text: string,
): { ok: true; cases: ScoreCase[] } | ({ ok: false; line: number } & Failure) {
  const cases: ScoreCase[] = [];
  const ids = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return { ok: false, code: ErrorCode.invalid_file, line: i + 1, message: "not valid JSON" };
    }
    const parsed = ScoreCaseSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join(".") || "the line";
      return {
        ok: false,
        code: ErrorCode.invalid_file,
        line: i + 1,
        message: `${field}: ${issue.message}`,
      };
    }
    const key = String(parsed.data.id);
    if (ids.has(key))
      return {
        ok: false,
        code: ErrorCode.invalid_file,
        line: i + 1,
        message: `duplicate id "${key}"`,
      };
    ids.add(key);
    cases.push(parsed.data);
  }
  if (cases.length === 0)
    return { ok: false, code: ErrorCode.invalid_file, line: 0, message: "no cases in the input" };
  return { ok: true, cases };
}

/** The question as the scorer sees it: choices, when given, appended as lettered options. */
function posedQuestion(c: ScoreCase): string {
  const q = c.question ?? "";
  if (!c.choices || c.choices.length === 0) return q;
  const letters = c.choices.map((text, i) => `${String.fromCharCode(65 + i)}) ${text}`);
  return `${q}\n\n${letters.join("\n")}`.trim();
}

/** Scores one case; the line to write for it. */
export async function scoreCase(
  scorer: Scorer,
  c: ScoreCase,
  signal: AbortSignal,
): Promise<ScoreOutput> {
  const r = await scorer.score(
    c.answer,
    { question: posedQuestion(c), expected: c.reference },
    signal,
  );
  return {
    id: c.id,
    correct: r.correct,
    extracted: r.extracted,
    reason: r.reason ?? null,
    scorer: scorer.id,
    version: scorer.version,
    ...(scorer.profile !== undefined ? { profile: scorer.profile } : {}),
  };
}
