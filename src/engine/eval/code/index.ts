/**
 * The code scorer's platform-neutral surface. Pick the sandbox by platform:
 * `createNodeSandbox()` from src/node/sandbox/process.ts (CLI, tests) or `createBrowserSandbox()` from ./browser.ts
 * (import it lazily in the studio), then `createCodeScorer({ sandbox })`.
 */
export type { Scorer, ScoreResult, RunLimits, RunOutcome, RunRequest, RunStatus } from "./types.ts";
export { DEFAULT_LIMITS, MAX_TIME_LIMIT_MS } from "./types.ts";
export type { CodeScoreDetails, CodeScorerOptions, FailedTest, Verdict } from "./scorer.ts";
export { createCodeScorer } from "./scorer.ts";
export type { Extraction } from "./extract.ts";
export { extractProgram } from "./extract.ts";
export type { CodeTests, ParsedTests } from "./tests-schema.ts";
export { codeTestsSchema, normaliseOutput, parseCodeTests } from "./tests-schema.ts";
export type {
  Lease,
  LeaseResult,
  PoolOptions,
  RunResult,
  Sandbox,
  SandboxPhase,
  SandboxStatus,
} from "./sandbox.ts";
export { createInterpreterPool, leaseOver } from "./pool.ts";
export type { PyValue } from "./value.ts";
export { equalsExpected, pyValueSchema } from "./value.ts";
export { CODE_SCORER_VERSION, oldScorerNote } from "./scorer.ts";
