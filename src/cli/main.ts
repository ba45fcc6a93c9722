// The `conductor-studio` entry: finds the command in the registry, prints help, and turns every
// failure into a message and an exit code (see exit-codes.ts); no stack trace reaches a user.
import { readFileSync } from "node:fs";
import { type CliCommand, type Io, UsageError } from "./command.ts";
import { EXIT, EXIT_MEANING, exitCodesHelp } from "./exit-codes.ts";
import * as registered from "./command-list.ts";
import { didYouMean, explainParseArgsError, optionsIn } from "./suggest.ts";

export type { Io } from "./command.ts";

/** The registered commands, by name. */
export const COMMANDS: readonly CliCommand[] = Object.values(registered).sort((a, b) =>
  a.name.localeCompare(b.name),
);

function version(): string {
  const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  const parsed: unknown = JSON.parse(text);
  const v =
    typeof parsed === "object" && parsed !== null && "version" in parsed ? parsed.version : null;
  return typeof v === "string" ? v : "unknown";
}

function topHelp(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const list = [...commands]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`)
    .join("\n");
  return `conductor-studio ${version()}: plan and run Conductor workflows from the command line, on the
same engine as Conductor Studio. Data goes to stdout, messages and progress to stderr.

Usage:
  conductor-studio COMMAND [options]
  conductor-studio COMMAND --help    that command's options, files, exit codes and examples
                                     (or conductor-studio help COMMAND)
  conductor-studio --version

Commands:
${list}

${exitCodesHelp(EXIT_MEANING)}
Examples:
  conductor-studio parse --workers 3 plan.txt
  conductor-studio run --config pool.json --question "What is 17 * 23?" --out run.json
  conductor-studio eval --help
`;
}

const defaultIo: Io = {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
  env: process.env,
  stderrIsTTY: process.stderr.isTTY,
  columns: process.stderr.columns,
};

function find(name: string, commands: readonly CliCommand[]): CliCommand {
  const command = commands.find((c) => c.name === name);
  if (command) return command;
  const known = commands.map((c) => c.name);
  throw new UsageError(`Unknown command "${name}"${didYouMean(name, known)}.`);
}

/** `--help` or `-h` among the arguments (before a `--`). */
function asksHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

/** The CLI entry: returns the exit code. `commands` is the registry (tests pass their own). */
export async function main(
  argv: string[],
  io: Io = defaultIo,
  commands: readonly CliCommand[] = COMMANDS,
): Promise<number> {
  const [first, ...rest] = argv;
  let command: CliCommand | null = null;
  try {
    if (first === undefined || first === "--help" || first === "-h") {
      io.stdout(topHelp(commands));
      return EXIT.ok;
    }
    if (first === "--version" || first === "-V" || first === "version") {
      io.stdout(`conductor-studio ${version()}\n`);
      return EXIT.ok;
    }
    if (first === "help") {
      io.stdout(rest[0] ? find(rest[0], commands).help : topHelp(commands));
      return EXIT.ok;
    }
    if (first.startsWith("-"))
      throw new UsageError(
        `Unknown option '${first}'${didYouMean(first, ["--help", "--version"], "")}; a command comes first (${commands.map((c) => c.name).join(", ")}).`,
      );
    command = find(first, commands);
    if (asksHelp(rest)) {
      io.stdout(command.help);
      return EXIT.ok;
    }
    return await command.run(rest, io);
  } catch (e: unknown) {
    const parseArgsMessage = explainParseArgsError(e, command ? optionsIn(command.help) : []);
    if (e instanceof UsageError || parseArgsMessage !== null) {
      const more = command ? `conductor-studio ${command.name} --help` : "conductor-studio --help";
      io.stderr(`${parseArgsMessage ?? (e as Error).message}\nRun ${more} for usage.\n`);
      return EXIT.usage;
    }
    return internalError(e, io);
  }
}

/** A bug: one line for the user, the stack only when CONDUCTOR_STUDIO_DEBUG is set. */
export function internalError(e: unknown, io: Pick<Io, "stderr" | "env">): number {
  const message = e instanceof Error ? e.message : String(e);
  const stack = io.env.CONDUCTOR_STUDIO_DEBUG && e instanceof Error ? `\n${e.stack}` : "";
  io.stderr(
    `conductor-studio: internal error: ${message}${stack}\n` +
      "This is a bug; please report it with the command you ran" +
      (stack ? ".\n" : " (CONDUCTOR_STUDIO_DEBUG=1 shows the stack).\n"),
  );
  return EXIT.internal;
}
