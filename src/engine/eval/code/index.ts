/**
 * The code scorer's platform-neutral surface. Pick the sandbox by platform:
 * `createNodeSandbox()` from ./node.ts (CLI, tests) or `createBrowserSandbox()` from ./browser.ts
 * (import it lazily in the studio), then `createCodeScorer({ sandbox })`.
 */
export type { Scorer, ScoreResult, RunLimits, RunOutcome, RunRequest, RunStatus } from "./types.ts";
export { DEFAULT_LIMITS } from "./types.ts";
export type { CodeScoreDetails, CodeScorerOptions, FailedTest, Verdict } from "./scorer.ts";
export { createCodeScorer } from "./scorer.ts";
export type { Extraction } from "./extract.ts";
export { extractProgram } from "./extract.ts";
export type { CodeTests, ParsedTests } from "./tests-schema.ts";
export { codeTestsSchema, normaliseOutput, parseCodeTests } from "./tests-schema.ts";
export type { PoolOptions, RunResult, Sandbox, SandboxPhase, SandboxStatus } from "./pool.ts";
export { createInterpreterPool } from "./pool.ts";
