/**
 * The scorer interface shared with the evaluation mode (src/engine/eval), and the types of one
 * program run in the sandbox.
 */

export type { ScoreResult, Scorer } from "../scorers/types.ts";

/** Limits for one program run (one test). */
export interface RunLimits {
  /** Wall time per test in milliseconds (default 6000, LiveCodeBench's figure). */
  timeMs: number;
  /** Bytes of stdout + stderr a program may write before it is stopped (default 1 MiB). */
  outputBytes: number;
  /** WebAssembly memory above which the interpreter is replaced after the run (default 1 GiB). */
  memoryBytes: number;
}

export const DEFAULT_LIMITS: RunLimits = {
  timeMs: 6000,
  outputBytes: 1 << 20,
  memoryBytes: 1 << 30,
};

/** What the sandbox is asked to run: the program with stdin, or a call of one of its functions. */
export type RunRequest =
  | { mode: "stdio"; code: string; stdin: string }
  | {
      mode: "function";
      code: string;
      /** `solve` or `Solution.twoSum` (a method: the class is instantiated without arguments). */
      name: string;
      /** JSON text of the argument list and of the expected value. */
      argsJson: string;
      expectedJson: string;
    };

/**
 * How a run ended. `ok`: the program finished (for function runs, `passed` says whether the value
 * matched). The others are failures of the program itself, never of the sandbox.
 */
export type RunStatus =
  "ok" | "syntax_error" | "runtime_error" | "timeout" | "output_limit" | "memory_limit" | "crashed";

export interface RunOutcome {
  status: RunStatus;
  stdout: string;
  stderr: string;
  /** For `runtime_error`/`syntax_error`: the last line of the traceback, e.g. `ZeroDivisionError: …`. */
  error?: string;
  /** Function runs that finished: whether the value equals the expected one, and its repr. */
  passed?: boolean;
  actual?: string;
  timeMs: number;
}
