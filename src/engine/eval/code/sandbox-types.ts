/**
 * The scorer interface shared with the evaluation mode (src/engine/eval), and the types of one
 * program run in the sandbox.
 */

export type { ScoreResult, Scorer } from "../scorers/types.ts";

/** Limits for one program run (one test). */
export interface RunLimits {
  /** Wall time per test in milliseconds (default 6000, LiveCodeBench's figure). */
  timeMs: number;
  /** Bytes a program may write to all its file descriptors together (default 1 MiB). */
  outputBytes: number;
  /** WebAssembly memory the interpreter may grow to while the program runs (default 1 GiB). */
  memoryBytes: number;
}

export const DEFAULT_LIMITS: RunLimits = {
  timeMs: 6000,
  outputBytes: 1 << 20,
  memoryBytes: 1 << 30,
};

/** The longest per-test limit a question set may ask for, unless the caller raises it. */
export const MAX_TIME_LIMIT_MS = 60_000;

/**
 * What the sandbox is asked to run: the program with stdin, or a call of one of its functions.
 * No expected value is ever part of a request: verdicts are decided outside the interpreter.
 */
export type RunRequest =
  | { mode: "stdio"; code: string; stdin: string }
  | {
      mode: "function";
      code: string;
      /** `solve` or `Solution.twoSum` (a method: the class is instantiated without arguments). */
      name: string;
      /** JSON text of the argument list. */
      argsJson: string;
      /**
       * The arguments are tagged values (exact-value.ts) decoded to their exact types, and the
       * value comes back tagged with its dict keys' types kept (EvalPlus's inputs hold tuples,
       * sets and int-keyed dicts that plain JSON would change).
       */
      exact?: boolean;
    };

/**
 * How a run ended. `ok`: the program finished (for function runs, `value` holds what it
 * returned). The others are failures of the program itself, never of the sandbox.
 */
export type RunStatus =
  "ok" | "syntax_error" | "runtime_error" | "timeout" | "output_limit" | "memory_limit" | "crashed";

export interface RunOutcome {
  status: RunStatus;
  stdout: string;
  stderr: string;
  /** For `runtime_error`/`syntax_error`: the last line of the traceback, e.g. `ZeroDivisionError: …`. */
  error?: string;
  /** Function runs that finished: the returned value as plain data (value.ts), and its repr. */
  value?: unknown;
  repr?: string;
  /** Function runs whose value is not plain data (a subclass, a custom class): why. */
  notPlain?: string;
  timeMs: number;
}
