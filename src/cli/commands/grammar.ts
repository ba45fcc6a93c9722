// `conductor-studio grammar`: the plan grammar for a pool size and a step cap.
import { buildPlanGrammar } from "../../engine/conductor/grammar.ts";
import { DEFAULT_OPENING } from "../../engine/conductor/prompt.ts";
import type { CliCommand, Io } from "../command.ts";
import { MAX_STEPS_CAP } from "../../engine/constants.ts";
import { EXIT, exitCodesHelp } from "../exit-codes.ts";
import { intOption, optionsHelp, parseOptions } from "../options.ts";
import { MAX_WORKERS } from "./parse.ts";

const SHAPE = {
  name: "grammar",
  usage: "--workers N --max-steps K [--round R] [--opening TEXT]",
  options: {
    workers: {
      type: "string",
      arg: "N",
      description: `pool size: ids 0..N-1 (1 to ${MAX_WORKERS}; required)`,
    },
    "max-steps": {
      type: "string",
      arg: "K",
      description: `step cap, 1 to ${MAX_STEPS_CAP} (required)`,
    },
    round: {
      type: "string",
      arg: "R",
      description: "1 or more also allows the three empty lists (default 0)",
    },
    opening: {
      type: "string",
      arg: "TEXT",
      description:
        'fixed text the output starts with (default: the prompt\'s opening; "" for none)',
    },
  },
} as const;

const HELP = `Print the plan grammar (EBNF in the dialect xgrammar, vLLM and SGLang take) for a pool of N workers
and at most K steps. Decoding under it, the Conductor's plan always parses: the opening, reasoning of
bounded length without "[", then three lists of equal length with ids in the pool, non-empty
subtasks and access to earlier steps only. The grammar grows with K, so K is capped at ${MAX_STEPS_CAP}.

${optionsHelp(SHAPE)}
${exitCodesHelp({ 0: "the grammar was printed", 2: "usage error (a missing or out-of-range option)" })}
Examples:
  conductor-studio grammar --workers 7 --max-steps 5 > plan.ebnf
  conductor-studio grammar --workers 3 --max-steps 2 --round 1 --opening ""
`;

function run(args: string[], io: Io): Promise<number> {
  const { values } = parseOptions(SHAPE, args);
  const workers = intOption(values.workers, "workers", { min: 1, max: MAX_WORKERS });
  const maxSteps = intOption(values["max-steps"], "max-steps", {
    min: 1,
    max: MAX_STEPS_CAP,
    why: "the grammar grows with the step cap; a config accepts at most that many steps too",
  });
  const round = intOption(values.round, "round", { min: 0, fallback: 0 });
  const opening = values.opening ?? DEFAULT_OPENING;
  io.stdout(buildPlanGrammar({ workers, maxSteps, round, opening }));
  return Promise.resolve(EXIT.ok);
}

export const grammarCommand: CliCommand = {
  name: "grammar",
  summary: "print the plan grammar (EBNF for xgrammar, vLLM, SGLang) for a pool and a step cap",
  help: HELP,
  run,
};
