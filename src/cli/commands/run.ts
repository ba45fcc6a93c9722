// `conductor-studio run`: plan one question with the Conductor, run the workflow, keep the record.
import { EndReason } from "../../engine/errors.ts";
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { exportRun } from "../../engine/run/export.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import { type CliCommand, type Io, UsageError } from "../command.ts";
import { CONFIG_HELP, loadCommandConfig } from "../config.ts";
import { EXIT, type ExitCode, UNREACHABLE_CODES, exitCodesHelp } from "../exit-codes.ts";
import { optionsHelp, parseOptions } from "../options.ts";
import { firstUnwritable } from "../output-paths.ts";
import { otlpExporter, otlpOptionTable } from "../otlp-export.ts";
import { CONDUCTOR_GGUF_OPTION, ggufConductor } from "../gguf/conductor.ts";
import { answerBlock, progressLine, totalsLine } from "./run-progress.ts";
import { createEngine, forCommandLine, runQuestion } from "../kit/engine.ts";

const SHAPE = {
  name: "run",
  usage:
    "--config FILE --question TEXT [--out FILE] [--strict] [--otlp-endpoint URL] [--conductor-gguf FILE]",
  options: {
    config: {
      type: "string",
      arg: "FILE",
      description: "the Conductor and the workers (JSON, below; required)",
    },
    question: {
      type: "string",
      arg: "TEXT",
      description: 'the question; "-" reads it from stdin (required)',
    },
    out: {
      type: "string",
      arg: "FILE",
      description: "write the run record there instead of stdout (checked before any call)",
    },
    strict: {
      type: "boolean",
      description: "refuse a config with unknown keys instead of warning",
    },
    ...otlpOptionTable("the run", "trace"),
    "conductor-gguf": CONDUCTOR_GGUF_OPTION,
  },
} as const;

const HELP = `Plan one question with the configured Conductor, run the workflow on the workers, and keep the
whole run as a record (the versioned export JSON the studio imports).

${optionsHelp(SHAPE)}
Output: progress on stderr, one line per plan, step and retry; the record on stdout, or in --out.
On a terminal the answer and one line of totals (tokens, calls, cost, time) follow on stderr.

${CONFIG_HELP}
${exitCodesHelp({
  0: "the run produced an answer",
  1: "the run failed (a step failed, the call budget ran out, Ctrl-C)",
  2: "usage error, an invalid config, or an --out path that cannot be written; nothing was called",
  3: "the Conductor's plan could not be used (its raw text is in the record)",
  4: "the Conductor or a worker could not be reached",
})}
Examples:
  conductor-studio run --config pool.json --question "What is 17 * 23?"
  conductor-studio run --config pool.json --question "Prove that sqrt(2) is irrational." --out run.json
  conductor-studio run --config pool.json --conductor-gguf conductor-q4_k_m.gguf --question "What is 17 * 23?"
  echo "How many primes are below 100?" | conductor-studio run --config pool.json --question - > run.json
`;

/** Every failure the run's own calls met (nested workflows left to their step's error). */
function failureCodes(record: RunRecord): string[] {
  return record.rounds.flatMap((r) => [
    ...(r.plan?.error ? [r.plan.error.code] : []),
    ...r.steps.flatMap((s) => (s.error ? [s.error.code] : [])),
  ]);
}

/** The exit code of a finished run: see the table in the help. */
export function runExitCode(record: RunRecord): ExitCode {
  if (record.status === "done" && record.answer !== null) return EXIT.ok;
  if (record.status !== "cancelled" && failureCodes(record).some((c) => UNREACHABLE_CODES.has(c)))
    return EXIT.unreachable;
  if (record.endReason === EndReason.plan_error) return EXIT.plan;
  return EXIT.failed;
}

async function run(args: string[], io: Io): Promise<number> {
  const { values } = parseOptions(SHAPE, args);
  const otlp = otlpExporter(values, io);
  if (!values.config) throw new UsageError("--config FILE is required.");
  if (values.question === undefined) throw new UsageError("--question TEXT is required.");
  const question = values.question === "-" ? await io.readStdin() : values.question;
  if (!question.trim())
    throw new UsageError(
      values.question === "-" ? "stdin held no question." : "--question TEXT is empty.",
    );
  const resolved = await loadCommandConfig(values.config, io, values.strict);
  if (!resolved) return EXIT.usage;
  if (values.out && resolve(values.out) === resolve(values.config))
    throw new UsageError("--out is the config file; choose another path for the run record.");
  const unwritable = values.out ? await firstUnwritable([values.out]) : null;
  if (unwritable) {
    io.stderr(`${unwritable}\n`);
    return EXIT.usage;
  }
  const gguf = values["conductor-gguf"]
    ? await ggufConductor(values["conductor-gguf"], resolved)
    : undefined;
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once("SIGINT", onSignal);
  const starts = new Map<string, number>();
  let record: RunRecord;
  try {
    const engine = gguf
      ? createEngine(gguf.resolved, { conductor: gguf.backend })
      : createEngine(resolved);
    record = await runQuestion(engine, {
      question,
      context: [],
      signal: controller.signal,
      onEvent: (event, after) => {
        const names = after.rounds.at(-1)?.steps.map((s) => s.workerName) ?? [];
        const line = progressLine(event, starts, names);
        if (line) io.stderr(`${forCommandLine(line)}\n`);
      },
    });
  } finally {
    process.off("SIGINT", onSignal);
    await gguf?.backend.unload();
  }
  // The trace goes out in the background; the record is written first, whatever the collector does.
  otlp?.add(record);
  try {
    return await writeRecord(record, values.out, io);
  } finally {
    await otlp?.close();
  }
}

async function writeRecord(record: RunRecord, out: string | undefined, io: Io): Promise<number> {
  const json = exportRun(record);
  if (io.stderrIsTTY) io.stderr(answerBlock(record));
  else io.stderr(`[run] totals: ${totalsLine(record)}\n`);
  if (out) {
    try {
      await writeFile(out, json);
    } catch (e: unknown) {
      // Checked before the run, but a disk can fill: the paid-for record is never lost.
      const why = e instanceof Error ? e.message : String(e);
      io.stderr(`Cannot write the run record to ${out} (${why}); writing it to stdout.\n`);
      io.stdout(json);
      return EXIT.failed;
    }
  } else io.stdout(json);
  return runExitCode(record);
}

export const runCommand: CliCommand = {
  name: "run",
  summary: "plan a question with the Conductor, run the workflow, print the run record",
  help: HELP,
  run,
};
