import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { createScorer } from "../../engine/eval/scorers/registry.ts";
import type { ScoreOutput } from "../../engine/eval/scorers/score-input.ts";
import { parseScoreInput, scoreCase } from "../../engine/eval/scorers/score-input.ts";
import type { CliCommand, Io } from "../command.ts";
import { UsageError } from "../command.ts";
import { EXIT, exitCodesHelp } from "../exit-codes.ts";
import { outputProblem } from "../output-paths.ts";

const SCORERS = ["math", "mc", "exact", "contains", "regex"] as const;

const HELP = `Score stored answers without calling a model, one JSON line per case.

Usage: conductor-studio score --scorer math|mc|exact|contains|regex --input FILE [options]

Options:
  --scorer ID        math, mc, exact, contains or regex (required)
  --input FILE       the cases, JSON lines; "-" reads stdin (required)
  --out FILE         write the results there instead of stdout
  --version N        an older scorer version (math: 1 to 3, mc: 1 to 3; default the newest)
  --mode MODE        mc's cascade: lenient (default) or strict
  --profile NAME     math's grader profile: default, math-verify, qwen-math, minerva or strict
                     (docs/evaluate.md, "Graders"; math version 3 and later)
  --pattern RE       the regex scorer's pattern (default: the reference is the pattern)
  --flags F          the regex scorer's flags

Each input line is {"id", "answer", "reference", "question"?, "choices"?} (choices are lettered A,
B, ... for mc); each output line is {"id", "correct": true|false|null, "extracted", "reason",
"scorer", "version", "profile"?}. A summary goes to stderr. The "Graders" section of
docs/evaluate.md says how the math and multiple-choice scorers agree with the field's reference
graders.

${exitCodesHelp({
  [EXIT.ok]: "every case was scored",
  [EXIT.usage]: "a bad option or a bad input line (named); nothing was written",
})}
Examples:
  conductor-studio score --scorer math --input cases.jsonl --out results.jsonl
  conductor-studio score --scorer mc --version 1 --mode strict --input cases.jsonl
  conductor-studio score --scorer math --profile qwen-math --input cases.jsonl
`;

function options(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    options: {
      scorer: { type: "string" },
      version: { type: "string" },
      input: { type: "string" },
      out: { type: "string" },
      mode: { type: "string" },
      profile: { type: "string" },
      pattern: { type: "string" },
      flags: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  return values;
}

async function run(args: string[], io: Io): Promise<number> {
  const o = options(args);
  if (o.help) {
    io.stdout(HELP);
    return 0;
  }
  const id = o.scorer;
  if (!id) throw new UsageError(`--scorer is required (${SCORERS.join(", ")}).`);
  if (!(SCORERS as readonly string[]).includes(id))
    throw new UsageError(`--scorer must be one of ${SCORERS.join(", ")}, got "${id}".`);
  let version: number | undefined;
  if (o.version !== undefined) {
    version = Number(o.version);
    if (!Number.isInteger(version) || version < 1)
      throw new UsageError(`--version must be a positive integer, got "${o.version}".`);
  }
  if (o.mode !== undefined && o.mode !== "strict" && o.mode !== "lenient")
    throw new UsageError(`--mode must be strict or lenient, got "${o.mode}".`);
  if (!o.input) throw new UsageError("--input FILE is required (- for stdin).");
  const scorerOptions: Record<string, unknown> = {};
  if (o.mode) scorerOptions.mode = o.mode;
  if (o.pattern !== undefined) scorerOptions.pattern = o.pattern;
  if (o.flags !== undefined) scorerOptions.flags = o.flags;
  const made = createScorer({ id, options: scorerOptions, version, profile: o.profile });
  if (!made.ok) throw new UsageError(made.message);

  if (o.out) {
    const refused = await outputProblem(
      [o.out],
      o.input === "-" ? [] : [o.input],
      "Nothing was scored.",
    );
    if (refused) throw new UsageError(refused);
  }
  let text: string;
  try {
    text = o.input === "-" ? await io.readStdin() : await readFile(o.input, "utf8");
  } catch (e: unknown) {
    io.stderr(`Cannot read ${o.input}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const input = parseScoreInput(text);
  const name = o.input === "-" ? "stdin" : o.input;
  if (!input.ok) {
    io.stderr(
      input.line > 0
        ? `${name} line ${input.line}: ${input.message}\n`
        : `${name}: ${input.message}\n`,
    );
    return 2;
  }

  const signal = new AbortController().signal;
  const results: ScoreOutput[] = [];
  for (const c of input.cases) results.push(await scoreCase(made.scorer, c, signal));
  const lines = results.map((r) => JSON.stringify(r)).join("\n") + "\n";
  if (o.out) await writeFile(o.out, lines);
  else io.stdout(lines);

  const count = (v: boolean | null) => results.filter((r) => r.correct === v).length;
  io.stderr(
    `${made.scorer.id} v${made.scorer.version}${made.scorer.profile ? ` (profile ${made.scorer.profile})` : ""}: ${results.length} cases, ${count(true)} correct, ` +
      `${count(false)} wrong, ${count(null)} unscored${o.out ? ` (written to ${o.out})` : ""}\n`,
  );
  return 0;
}

/** `conductor-studio score`: stored answers scored again, one JSON line per case. */
export const scoreCommand: CliCommand = {
  name: "score",
  summary: "score stored answers with a scorer and version, without calling a model",
  help: HELP,
  run,
};
