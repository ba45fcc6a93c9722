// A command's options as one table in node:util parseArgs' shape, parsed by commander: help lines
// from the same table, "did you mean" for a mistyped option, and values keyed by the option's
// name as parseArgs gives them, so a command reads `values["max-cost"]` either way.
import { Command, CommanderError, Option } from "commander";
import { UsageError } from "./command.ts";

export interface OptionSpec {
  type: "string" | "boolean";
  /** May be given more than once; the values come as a list. */
  multiple?: boolean;
  short?: string;
  /** The value's placeholder in the help: FILE, N, USD. */
  arg?: string;
  /** One line for the help; what the option does and its default. */
  description: string;
}

export type OptionTable = Record<string, OptionSpec>;

type ValueOf<S extends OptionSpec> = S["type"] extends "boolean"
  ? boolean | undefined
  : S["multiple"] extends true
    ? string[] | undefined
    : string | undefined;

export type OptionValues<T extends OptionTable> = { [K in keyof T]: ValueOf<T[K]> };

export interface CommandShape<T extends OptionTable> {
  name: string;
  /** The usage line after `conductor-studio NAME`. */
  usage: string;
  options: T;
  /** Positional arguments allowed (0 by default). */
  positionals?: number;
}

const HELP_WIDTH = 100;

function build<T extends OptionTable>(shape: CommandShape<T>): Command {
  const cmd = new Command(`conductor-studio ${shape.name}`)
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined })
    .configureHelp({ helpWidth: HELP_WIDTH })
    .helpOption(false)
    .showSuggestionAfterError(true)
    .allowExcessArguments(false)
    .usage(shape.usage);
  for (let i = 0; i < (shape.positionals ?? 0); i++) cmd.argument(`[arg${i}]`);
  for (const [name, spec] of Object.entries(shape.options)) {
    const value = spec.type === "string" ? ` <${spec.arg ?? "value"}>` : "";
    const flags = `${spec.short ? `-${spec.short}, ` : ""}--${name}${value}`;
    const option = new Option(flags, spec.description);
    if (spec.multiple) option.argParser((v: string, prev?: string[]) => [...(prev ?? []), v]);
    cmd.addOption(option);
  }
  return cmd;
}

/** The usage line and the options, formatted for the help. */
export function optionsHelp<T extends OptionTable>(shape: CommandShape<T>): string {
  return build(shape).helpInformation();
}

/** Parses `args`; a mistake becomes a UsageError naming the closest option. */
export function parseOptions<T extends OptionTable>(
  shape: CommandShape<T>,
  args: string[],
): { values: OptionValues<T>; positionals: string[] } {
  const cmd = build(shape);
  try {
    cmd.parse(args, { from: "user" });
  } catch (e: unknown) {
    if (!(e instanceof CommanderError)) throw e;
    const text = e.message
      .replace(/^error: /, "")
      .replace(/\n\(Did you mean (.+)\?\)$/, " (did you mean $1?)");
    throw new UsageError(
      `${text[0]?.toUpperCase() ?? ""}${text.slice(1)}${/[.?)]$/.test(text) ? "" : "."}`,
    );
  }
  const opts = cmd.opts();
  const values: Record<string, unknown> = {};
  for (const option of cmd.options) values[option.long!.slice(2)] = opts[option.attributeName()];
  return { values: values as OptionValues<T>, positionals: cmd.args };
}

/** An integer option within [min, max], or `fallback` when absent (a UsageError when required). */
export function intOption(
  value: string | undefined,
  name: string,
  range: { min: number; max?: number; fallback?: number; why?: string },
): number {
  if (value === undefined) {
    if (range.fallback === undefined) throw new UsageError(`--${name} is required.`);
    return range.fallback;
  }
  const n = Number(value);
  const bounds =
    range.max === undefined ? `of at least ${range.min}` : `from ${range.min} to ${range.max}`;
  if (value.trim() === "" || !Number.isInteger(n) || n < range.min)
    throw new UsageError(`--${name} must be an integer ${bounds}, got "${value}".`);
  if (range.max !== undefined && n > range.max)
    throw new UsageError(
      `--${name} must be at most ${range.max}${range.why ? ` (${range.why})` : ""}, got ${value}.`,
    );
  return n;
}
