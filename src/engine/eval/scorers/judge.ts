import type { ChatBackend } from "../../llm/types.ts";
import { collect } from "../../llm/types.ts";
import type { ScoreResult, Scorer, ScoredItem } from "./types.ts";
import { verdict } from "./types.ts";

export const DEFAULT_RUBRIC =
  "Judge whether the candidate's final answer means the same as the reference answer. Ignore style, length and the reasoning; only the final answer counts.";

/** The judge's prompt; `{{question}}`, `{{reference}}`, `{{answer}}` and `{{rubric}}` are filled in. */
export const JUDGE_TEMPLATE = `You grade one answer to a question.

Rubric: {{rubric}}

<question>
{{question}}
</question>

<reference>
{{reference}}
</reference>

<candidate>
{{answer}}
</candidate>

Think briefly if you need to, then end with exactly one line: VERDICT: CORRECT or VERDICT: INCORRECT`;

/**
 * Reads the verdict strictly: the last non-empty line must be `VERDICT: CORRECT` or
 * `VERDICT: INCORRECT` (bold or not), and no other line may give a different verdict.
 */
export function parseVerdict(text: string): boolean | null {
  const lines = text
    .replace(/<think>[\s\S]*?<\/think>/gi, "")
    .split("\n")
    .map((l) => l.replace(/[*_`]/g, "").trim())
    .filter(Boolean);
  const last = lines.at(-1);
  const m = last ? /^verdict\s*:\s*(correct|incorrect)\.?$/i.exec(last) : null;
  if (!m) return null;
  const value = m[1]!.toLowerCase() === "correct";
  const others = lines
    .map((l) => /^verdict\s*:\s*(correct|incorrect)\.?$/i.exec(l)?.[1]?.toLowerCase())
    .filter((v): v is string => v !== undefined);
  return others.every((v) => (v === "correct") === value) ? value : null;
}

export interface JudgeOptions {
  backend: ChatBackend;
  rubric?: string;
  temperature?: number;
  maxTokens?: number;
}

/** An LLM judge: a chosen worker grades with an editable rubric. A failed judge leaves "unscored". */
export function judgeScorer(o: JudgeOptions): Scorer {
  return {
    id: "judge",
    version: 1,
    async score(answer: string, item: ScoredItem, signal: AbortSignal): Promise<ScoreResult> {
      const prompt = JUDGE_TEMPLATE.replace("{{rubric}}", o.rubric ?? DEFAULT_RUBRIC)
        .replace("{{question}}", item.question)
        .replace("{{reference}}", item.expected ?? "(none given: judge on the question alone)")
        .replace("{{answer}}", answer);
      let text: string;
      try {
        ({ text } = await collect(
          o.backend,
          {
            messages: [{ role: "user", content: prompt }],
            temperature: o.temperature ?? 0,
            maxTokens: o.maxTokens ?? 512,
          },
          signal,
        ));
      } catch (e: unknown) {
        return verdict(null, null, {
          reason: `The judge failed: ${e instanceof Error ? e.message : String(e)}`,
        });
      }
      const v = parseVerdict(text);
      if (v === null)
        return verdict(null, null, {
          reason: "The judge's verdict could not be read.",
          details: { judge: text },
        });
      return verdict(v, answer.trim().split("\n").at(-1) ?? null, { details: { judge: text } });
    },
  };
}
