// `conductor-studio parse`: a Conductor completion (file or stdin) to one JSON line.
import { parseConductorOutput } from "../../engine/conductor/parse.ts";
import { type CliCommand, type Io, readInput } from "../command.ts";
import { DEFAULT_MAX_STEPS, MAX_STEPS_CAP } from "../../engine/constants.ts";
import { EXIT, exitCodesHelp } from "../exit-codes.ts";
import { intOption, optionsHelp, parseOptions } from "../options.ts";

/** The largest pool `parse` and `grammar` take: far above any real pool, far below a slip. */
export const MAX_WORKERS = 1000;

const SHAPE = {
  name: "parse",
  usage: "--workers N [--max-steps K] [--round R] [FILE | -]",
  positionals: 1,
  options: {
    workers: {
      type: "string",
      arg: "N",
      description: "pool size: model ids 0..N-1 are valid (1 to 1000; required)",
    },
    "max-steps": {
      type: "string",
      arg: "K",
      description: `step cap, 1 to ${MAX_STEPS_CAP} (default ${DEFAULT_MAX_STEPS}, the paper's)`,
    },
    round: {
      type: "string",
      arg: "R",
      description: "refinement round; 1 or more also allows the three empty lists (default 0)",
    },
  },
} as const;

/** The example in the help; cli-help.test.ts runs it and checks the output shown. */
export const PARSE_EXAMPLE_INPUT = `Two attempts, then a check that reads both.
model_id = [2, 0, 1]
subtasks = ["Solve it.", "Solve it another way.", "Compare both and answer."]
access_list = [[], [], ["all"]]`;
export const PARSE_EXAMPLE_OUTPUT =
  '{"ok":true,"steps":[{"worker":2,"subtask":"Solve it.","access":[]},' +
  '{"worker":0,"subtask":"Solve it another way.","access":[]},' +
  '{"worker":1,"subtask":"Compare both and answer.","access":"all"}]}';

const HELP = `Read a Conductor completion and print the workflow it describes, as one JSON line.

${optionsHelp(SHAPE)}
Input: FILE, or stdin when FILE is "-" or absent. Reasoning, <think> blocks, code fences and drafts
around the three lists are allowed; the last complete triple counts.

Output (stdout, one line): {"ok":true,"steps":[{"worker":W,"subtask":"...","access":A}, ...]}, where
A is "all" (every earlier step), [] (none) or a list of earlier step indices; or, for an invalid
plan, {"ok":false,"code":"...","message":"..."} with code one of missing_list, unparseable_list,
length_mismatch, no_steps, too_many_steps, bad_worker, bad_access, empty_subtask.

${exitCodesHelp({
  0: "the plan is valid",
  1: "the text was read but is not a valid plan (the JSON says why)",
  2: "usage error, or FILE cannot be read",
})}
Example: for plan.txt holding
${PARSE_EXAMPLE_INPUT.replace(/^/gm, "    ")}
  conductor-studio parse --workers 3 plan.txt
prints
    ${PARSE_EXAMPLE_OUTPUT}

Examples:
  conductor-studio parse --workers 3 plan.txt
  cat completion.txt | conductor-studio parse --workers 7 --max-steps 5 -
  conductor-studio parse --workers 7 --round 1 refinement.txt
`;

async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseOptions(SHAPE, args);
  const workers = intOption(values.workers, "workers", { min: 1, max: MAX_WORKERS });
  const maxSteps = intOption(values["max-steps"], "max-steps", {
    min: 1,
    max: MAX_STEPS_CAP,
    fallback: DEFAULT_MAX_STEPS,
  });
  const round = intOption(values.round, "round", { min: 0, fallback: 0 });
  const file = positionals[0] ?? "-";
  let text: string;
  try {
    text = await readInput(file, io);
  } catch (e: unknown) {
    // Exit 1 means "read, but not a valid plan"; a file that cannot be read is a usage problem.
    io.stderr(
      `Cannot read ${file === "-" ? "stdin" : file}: ${e instanceof Error ? e.message : String(e)}\n`,
    );
    return EXIT.usage;
  }
  const result = parseConductorOutput(text, { workers, maxSteps, round });
  const out = result.ok
    ? { ok: true, steps: result.steps }
    : { ok: false, code: result.code, message: result.message };
  io.stdout(`${JSON.stringify(out)}\n`);
  return result.ok ? EXIT.ok : EXIT.failed;
}

export const parseCommand: CliCommand = {
  name: "parse",
  summary: "read a Conductor completion (file or stdin) and print its workflow as JSON",
  help: HELP,
  run,
};
