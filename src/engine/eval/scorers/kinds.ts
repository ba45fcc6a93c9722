/**
 * The closed table of scorer kinds: what each one is, asked by every layer instead of comparing its
 * id (as promptfoo's assertion-handler table). Each kind says which versions it can still be built
 * at, the answer format it asks for, what it needs (a judge, the code sandbox, the questions), how
 * it poses an item and how its details read into a result. The factories that build each kind
 * live in registry.ts, keyed by the same ids; this file imports no scorer, so any layer (and the
 * code scorer itself) can ask it.
 */
import { z } from "zod";
import type { CodeResult } from "./code-result.ts";
import { CodeResultSchema } from "./code-result.ts";

/** The scorer kinds, in the order they are offered. Stored results keep the id as its string. */
export const ScorerIdSchema = z.enum(["mc", "math", "exact", "contains", "regex", "judge", "code"]);
export type ScorerId = z.infer<typeof ScorerIdSchema>;
export const ScorerId = ScorerIdSchema.enum;

/** The fields of a result that a scorer's `details` fill. */
export interface DetailFields {
  /** The multiple-choice strict verdict, kept beside the lenient one. */
  strict?: boolean;
  /** What the code scorer found: tests passed, run time, the first failure. */
  code?: CodeResult;
}

/** What a scorer kind is, besides how it is built. */
export interface ScorerKind {
  /** The versions it can still be built at, oldest first (the last is the default); empty: only its current one. */
  versions: readonly number[];
  /** The answer-format instruction every strategy answers under, ending the posed question. */
  instruction: string;
  /** It asks an LLM judge (a judge worker is chosen, and its calls are metered). */
  needsJudge: boolean;
  /** It runs the answer as a program against the item's tests (the Python sandbox). */
  runsCode: boolean;
  /** It takes a grader profile (math from version 3). */
  takesProfile: boolean;
  /** It poses the item's choices, shuffled and lettered; the reference becomes the letter. */
  posesChoices: boolean;
  /** It reads the item's question or tests, so scoring stored answers again needs the question set. */
  readsItems: boolean;
  /** The result fields its details fill. */
  readDetails(details: Record<string, unknown> | undefined): DetailFields;
}

const ANSWER_LINE = 'End your reply with a line "Answer: <your final answer>".';

/** Any scorer's strict verdict, when its details carry one. */
function strictOf(details: Record<string, unknown> | undefined): DetailFields {
  const strict = details?.strict;
  return typeof strict === "boolean" ? { strict } : {};
}

/** A kind that needs nothing and poses the item as it is. */
const PLAIN: ScorerKind = {
  versions: [],
  instruction: ANSWER_LINE,
  needsJudge: false,
  runsCode: false,
  takesProfile: false,
  posesChoices: false,
  readsItems: false,
  readDetails: strictOf,
};

const KINDS: Record<ScorerId, ScorerKind> = {
  mc: {
    ...PLAIN,
    versions: [1, 2, 3],
    instruction: 'End your reply with a line "Answer: X", where X is the letter of your choice.',
    posesChoices: true,
  },
  math: {
    ...PLAIN,
    versions: [1, 2, 3],
    instruction:
      'End your reply with a line "Answer: <value>" giving only the final number or expression.',
    takesProfile: true,
  },
  exact: PLAIN,
  contains: PLAIN,
  regex: PLAIN,
  judge: { ...PLAIN, needsJudge: true, readsItems: true },
  code: {
    ...PLAIN,
    instruction: "Reply with the complete program in one fenced code block.",
    runsCode: true,
    readsItems: true,
    readDetails: (details) => {
      const code = CodeResultSchema.safeParse(details);
      return { ...strictOf(details), ...(code.success ? { code: code.data } : {}) };
    },
  },
};

/** The id of a known scorer kind, read from user input or a stored definition; undefined if unknown. */
export function parseScorerId(text: string): ScorerId | undefined {
  const id = ScorerIdSchema.safeParse(text);
  return id.success ? id.data : undefined;
}

/** What the scorer kind `id` is; an unknown id (a test's fake scorer) is a plain kind that needs nothing. */
export function scorerKind(id: string): ScorerKind {
  const known = parseScorerId(id);
  return known ? KINDS[known] : PLAIN;
}
