import type { Failure } from "../../errors.ts";
import { ErrorCode } from "../../errors.ts";
import { z } from "zod";
import type { ChatBackend } from "../../llm/types.ts";
import type { SandboxSource } from "../code/lazy.ts";
import { codeLimitsOf, lazyCodeScorer } from "../code/lazy.ts";
import { judgeScorer } from "./judge.ts";
import { MathProfileSchema } from "./math-profiles.ts";
import { mathScorerV2 } from "./math-v2.ts";
import { mathScorer } from "./math.ts";
import { multipleChoiceScorerV2 } from "./mc-v2.ts";
import { multipleChoiceScorer } from "./mc.ts";
import { containsScorer, exactScorer, regexScorer } from "./text.ts";
import { ScorerId, ScorerIdSchema, parseScorerId, scorerKind } from "./kinds.ts";
import type { Scorer } from "./types.ts";

/** A scorer as stored with an evaluation: its id and options (the judge names a worker). */
export const ScorerSpecSchema = z.object({
  id: z.string().min(1),
  /** The scorer version to build; absent (or 0) means the newest (see `scorerVersions`). */
  version: z.number().int().nonnegative().optional(),
  /**
   * The grader profile (math from version 3: default, math-verify, qwen-math, minerva, strict);
   * absent means "default". A benchmark preset names the grader its paper reported with here.
   */
  profile: MathProfileSchema.optional(),
  /** mc: "strict" | "lenient"; regex: pattern/flags; math: tolerances; judge: workerId, rubric. */
  options: z.record(z.string(), z.unknown()).default({}),
});
export type ScorerSpec = z.infer<typeof ScorerSpecSchema>;

export interface ScorerDeps {
  /** The backend of the judge worker, for the "judge" scorer. */
  judgeBackend?: ChatBackend;
  /**
   * The Python sandbox for the "code" scorer, asked for on the first answer scored (the CLI: a
   * Node sandbox; the studio: the browser one, imported lazily). Its owner disposes it.
   */
  codeSandbox?: SandboxSource;
}

export type ScorerFactory = (
  options: Record<string, unknown>,
  deps: ScorerDeps,
  /** The version asked for; undefined means the newest. */
  version?: number,
) => Scorer | string;

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);

/** How each scorer kind is built (what each kind is: kinds.ts); a Record, so no kind lacks one. */
const FACTORIES: Record<ScorerId, ScorerFactory> = {
  mc: (o, _deps, version) => {
    const mode = o.mode === "strict" ? "strict" : "lenient";
    return version === 1
      ? multipleChoiceScorer(mode)
      : multipleChoiceScorerV2(mode, version === 2 ? 2 : 3);
  },
  math: (o, _deps, version) => {
    if (version === 1) return mathScorer({ relTol: num(o.relTol), absTol: num(o.absTol) });
    const profile = MathProfileSchema.safeParse(o.profile ?? "default");
    if (!profile.success)
      return `Unknown math profile "${String(o.profile)}" (known: ${MathProfileSchema.options.join(", ")}).`;
    if (version === 2 && o.profile !== undefined)
      return "Math version 2 has no profiles (profiles came with version 3).";
    const opts = { precision: num(o.precision), relTol: num(o.relTol), profile: profile.data };
    return mathScorerV2(opts, version ?? 3);
  },
  exact: () => exactScorer(),
  contains: () => containsScorer(),
  regex: (o) => regexScorer({ pattern: str(o.pattern), flags: str(o.flags) }),
  judge: (o, deps) =>
    deps.judgeBackend
      ? judgeScorer({ backend: deps.judgeBackend, rubric: str(o.rubric) })
      : "The LLM judge needs a judge worker.",
  code: (o, deps) =>
    deps.codeSandbox
      ? lazyCodeScorer(deps.codeSandbox, codeLimitsOf(o))
      : "The code scorer needs a Python sandbox.",
};

/** Replaces how a scorer kind is built (a test registers a fake "code"). */
export function registerScorer(id: ScorerId, factory: ScorerFactory): void {
  FACTORIES[id] = factory;
}

/** The scorer kinds, in the order they are offered (as strings: user input is checked against them). */
export function scorerIds(): string[] {
  return [...ScorerIdSchema.options];
}

/**
 * The versions a scorer kind can be built at, oldest first (the last is what a spec without a
 * version gets); none for kinds that keep only their current version.
 */
export function scorerVersions(id: ScorerId): number[] {
  return [...scorerKind(id).versions];
}

/**
 * Builds a scorer from its spec; an unknown id, an unknown version or a missing dependency is a
 * message, not a throw. The version comes from `spec.version` (or `options.version`); absent or 0
 * means the newest, so specs written before versions were selectable build what they built then.
 */
export function createScorer(
  spec: Pick<ScorerSpec, "id" | "options"> & {
    version?: number | undefined;
    /** Validated by the scorer's factory: an unknown name is a message. */
    profile?: string | undefined;
  },
  deps: ScorerDeps = {},
): { ok: true; scorer: Scorer } | ({ ok: false } & Failure) {
  const id = parseScorerId(spec.id);
  if (!id)
    return {
      ok: false,
      code: ErrorCode.invalid_scorer,
      message: `Unknown scorer "${spec.id}" (known: ${scorerIds().join(", ")}).`,
    };
  const asked = spec.version || num(spec.options.version) || undefined;
  const kind = scorerKind(id);
  const known = kind.versions;
  if (asked !== undefined && known.length > 0 && !known.includes(asked))
    return {
      ok: false,
      code: ErrorCode.invalid_scorer,
      message: `Scorer "${spec.id}" has no version ${asked} (known: ${known.join(", ")}).`,
    };
  if (spec.profile !== undefined && !kind.takesProfile)
    return {
      ok: false,
      code: ErrorCode.invalid_scorer,
      message: `Only the math scorer has grader profiles, not "${spec.id}".`,
    };
  const options =
    spec.profile !== undefined ? { ...spec.options, profile: spec.profile } : spec.options;
  const made = FACTORIES[id](options, deps, asked);
  if (typeof made === "string") return { ok: false, code: ErrorCode.invalid_scorer, message: made };
  if (asked !== undefined && made.version !== asked)
    return {
      ok: false,
      code: ErrorCode.invalid_scorer,
      message: `Scorer "${spec.id}" is at version ${made.version}; version ${asked} cannot be built.`,
    };
  return { ok: true, scorer: made };
}

/**
 * The scorer that suits an item set: code when items carry tests, multiple choice when they have
 * choices, math for numbers, else contains.
 */
export function defaultScorerId(
  items: readonly { choices?: string[]; kind?: string; expected?: string; tests?: unknown }[],
): ScorerId {
  if (items.some((i) => i.tests !== undefined && i.tests !== null && i.tests !== ""))
    return ScorerId.code;
  if (items.some((i) => i.choices && i.choices.length > 1)) return ScorerId.mc;
  if (
    items.every(
      (i) => i.kind === "math" || (i.expected !== undefined && /^[-\d.,/%\s$]+$/.test(i.expected)),
    )
  )
    return ScorerId.math;
  return ScorerId.contains;
}
