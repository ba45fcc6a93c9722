/**
 * The contract between `main.ts` and each command of `conductor-studio`. Every command lives in its
 * own module and exports one `CliCommand`; main.ts only dispatches, prints help and maps usage errors
 * to exit code 2, so commands written apart plug in the same way: one line in registry.ts,
 * `export { scoreCommand } from "./commands/score.ts";`.
 *
 * A command may parse with node:util parseArgs (an unknown option gets "did you mean" from the
 * `--options` its help mentions) or with options.ts (commander, help lines from the same table).
 * `NAME --help` never reaches `run`. Exit codes come from exit-codes.ts; anything else thrown is
 * reported as an internal error (exit 70), so expected failures return a code instead.
 */

/** What a command reads and writes: tests pass fakes, the binary passes the process's. */
export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  readStdin: () => Promise<string>;
  env: NodeJS.ProcessEnv;
  /** True when stderr is a terminal (a person watches): progress bars and the answer go there. */
  stderrIsTTY?: boolean;
  /** The terminal's width in columns, when stderr is one. */
  columns?: number;
}

/** One command: its name, a one-line summary for the top-level help, and its full help text. */
export interface CliCommand {
  name: string;
  summary: string;
  /** Usage, options and at least one example; printed for `conductor-studio NAME --help`. */
  help: string;
  /** Runs the command on the arguments after its name; returns the exit code. */
  run: (args: string[], io: Io) => Promise<number>;
}

/** A mistake in how the command was called: main.ts prints the message and exits 2. */
export class UsageError extends Error {}

/** Reads a file, or stdin for "-" (the Unix convention). */
export async function readInput(path: string, io: Io): Promise<string> {
  if (path === "-") return io.readStdin();
  const { readFile } = await import("node:fs/promises");
  return readFile(path, "utf8");
}
