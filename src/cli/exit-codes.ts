// One table of the command line's exit codes: every command returns one of these, and the help and
// docs/cli.md (generated from it) print this table.

export const EXIT = {
  /** The command did what it was asked: a valid plan, an answer, every eval item finished. */
  ok: 0,
  /** It ran but did not succeed: a step failed, the run or eval was stopped (Ctrl-C, spending
   * cap), or `parse` read text that is not a valid plan. */
  failed: 1,
  /** Bad usage or input: an unknown command or option, a bad value, an invalid config, dataset or
   * file, an output path that cannot be written. Nothing was sent to any model. */
  usage: 2,
  /** The Conductor answered, but its plan could not be used (the raw text is in the record). */
  plan: 3,
  /** An endpoint could not be reached (connection refused, DNS, timeout, dropped connection). */
  unreachable: 4,
  /** A bug in conductor-studio: the message says what failed; please report it. */
  internal: 70,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The error codes of a call that never got an answer from its endpoint. */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set(["network", "timeout", "dropped"]);

/** What each code means in general; a command's help says what it means for that command. */
export const EXIT_MEANING: Record<ExitCode, string> = {
  0: "success",
  1: "ran but failed or was stopped (a step failed, Ctrl-C, the spending cap; parse: invalid plan)",
  2: "bad usage or input (an option, the config, a file, an output path); nothing was called",
  3: "the Conductor's plan could not be used",
  4: "an endpoint could not be reached (connection refused, DNS, timeout, dropped connection)",
  70: "internal error (a bug: please report it)",
};

/** An "Exit codes:" help section: the codes a command returns, each with its meaning there. */
export function exitCodesHelp(meanings: Partial<Record<ExitCode, string>>): string {
  const rows = Object.entries(meanings).map(([c, m]) => `  ${c.padStart(2)}  ${m}`);
  return `Exit codes:\n${rows.join("\n")}\n`;
}
