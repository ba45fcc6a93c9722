import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { buildPlanGrammar } from "../engine/conductor/grammar.ts";
import { parseConductorOutput } from "../engine/conductor/parse.ts";
import { DEFAULT_OPENING } from "../engine/conductor/prompt.ts";
import { formatCost } from "../engine/cost.ts";
import type { RunEvent } from "../engine/schema/events.ts";
import { exportRun } from "../engine/run/export.ts";
import type { RunRecord } from "../engine/schema/record.ts";
import { type Io, UsageError } from "./command.ts";
import { resolveConfig } from "./config.ts";
import { scoreCommand } from "./score.ts";
import { serveCommand } from "./serve.ts";
import { createEngine, runQuestion } from "./serve-engine.ts";
import { EVAL_HELP, evalCommand } from "./eval.ts";

const HELP = `conductor-studio: plan and run Conductor workflows from the command line

Usage:
  conductor-studio parse --workers N [--max-steps K] [--round R] [FILE]
      Read Conductor output (FILE or stdin) and print one JSON object:
      {"ok":true,"steps":[{"worker":2,"subtask":"...","access":"all"}]} or
      {"ok":false,"code":"...","message":"..."}. Exit 0 when it parsed, 1 when invalid.
      --round 1 or more allows the three empty lists of a refinement round.

  conductor-studio run --config FILE --question TEXT [--out FILE]
      Plan with the configured Conductor, run the workflow, print progress to stderr and
      write the run record (versioned export JSON) to FILE or stdout.
      Exit 0 with a final answer, 1 when the run failed, 2 for an invalid config or plan.

  conductor-studio serve --config FILE [--host 127.0.0.1] [--port 8080] [--concurrency N]
                        [--queue N] [--api-key-env NAME] [--cors ORIGIN]... [--runs DIR]
                        [--model NAME] [--max-body-bytes N] [--grace-ms N]
      Serve the Conductor and its pool as one OpenAI-compatible model: POST /v1/chat/completions
      (the last user message is the question; stream: true streams the final step's tokens;
      "conductor_trace": true adds the run's plan, steps, usage and cost), GET /v1/models,
      GET /health. --concurrency runs at once (default 4), --queue requests waiting beyond them
      (default 16 x concurrency; then 429). --api-key-env names the variable holding the key
      clients must send (required unless bound to loopback). --cors allows a browser origin
      ("*" for any). --runs DIR appends each run record as a JSON line. --model is the served
      name (default "conductor"). Ctrl+C stops accepting, waits --grace-ms (default 30000) for
      runs in flight, then cancels them; a second Ctrl+C cancels at once. Exit 0 once stopped,
      1 when it cannot listen, 2 for invalid options or config.

${EVAL_HELP}
${scoreCommand.help}
  conductor-studio grammar --workers N --max-steps K [--round R] [--opening TEXT]
      Print the plan grammar (EBNF as xgrammar, vLLM and SGLang take it) for a pool of N
      workers and at most K steps; --round 1 or more also allows the three empty lists.
      The output starts with --opening (default: the prompt's opening; "" for none).

  conductor-studio --help

Config (JSON):
  {"conductor":{"baseURL":"...","model":"...","apiKeyEnv":"ENV_NAME",
                "planGrammar":"off|vllm|vllm-guided|sglang"},
   "workers":[{"name":"...","baseURL":"...","model":"...","apiKeyEnv":"ENV_NAME",
               "temperature":0.2,"maxTokens":4096,"price":{"input":1.25,"output":10}}],
   "maxSteps":5,"rounds":0}
  Keys are read from the named environment variables and never written anywhere.
`;

export type { Io } from "./command.ts";

const defaultIo: Io = {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
  env: process.env,
};

function intOption(value: string | undefined, name: string, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) throw new UsageError(`--${name} is required.`);
    return fallback;
  }
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`--${name} must be a non-negative integer, got "${value}".`);
  return n;
}

async function parseCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      workers: { type: "string" },
      "max-steps": { type: "string" },
      round: { type: "string" },
    },
    allowPositionals: true,
  });
  const workers = intOption(values.workers, "workers");
  const maxSteps = intOption(values["max-steps"], "max-steps", 5);
  const round = intOption(values.round, "round", 0);
  const file = positionals[0];
  let text: string;
  try {
    text = file ? await readFile(file, "utf8") : await io.readStdin();
  } catch (e: unknown) {
    // Exit 1 means "read, but not a valid plan"; a file that cannot be read is a usage problem.
    io.stderr(`Cannot read ${file ?? "stdin"}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const result = parseConductorOutput(text, { workers, maxSteps, round });
  const out = result.ok
    ? { ok: true, steps: result.steps }
    : { ok: false, code: result.code, message: result.message };
  io.stdout(`${JSON.stringify(out)}\n`);
  return result.ok ? 0 : 1;
}

function grammarCommand(args: string[], io: Io): number {
  const { values } = parseArgs({
    args,
    options: {
      workers: { type: "string" },
      "max-steps": { type: "string" },
      round: { type: "string" },
      opening: { type: "string" },
    },
  });
  const workers = intOption(values.workers, "workers");
  if (workers < 1) throw new UsageError("--workers must be at least 1.");
  const maxSteps = intOption(values["max-steps"], "max-steps");
  if (maxSteps < 1) throw new UsageError("--max-steps must be at least 1.");
  const round = intOption(values.round, "round", 0);
  const opening = values.opening ?? DEFAULT_OPENING;
  io.stdout(buildPlanGrammar({ workers, maxSteps, round, opening }));
  return 0;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** One stderr line per meaningful event; deltas are not echoed. */
function progressLine(e: RunEvent, starts: Map<string, number>, names: string[]): string | null {
  switch (e.type) {
    case "plan_start":
      starts.set(`plan${e.round}`, e.at);
      return `[round ${e.round + 1}] planning with the Conductor...`;
    case "plan_finish":
      if (e.error) return `[round ${e.round + 1}] plan failed: ${e.error.message}`;
      if (e.steps?.length === 0) return `[round ${e.round + 1}] the Conductor accepted the answer`;
      return `[round ${e.round + 1}] plan: ${e.steps?.length ?? 0} steps (${seconds(e.at - (starts.get(`plan${e.round}`) ?? e.at))})`;
    case "step_start":
      starts.set(`${e.round}.${e.step}`, e.at);
      return `[step ${e.step + 1}] ${names[e.step] ?? "worker"} started${e.attempt > 1 ? ` (attempt ${e.attempt})` : ""}`;
    case "step_retry":
      return `[step ${e.step + 1}] ${e.message} Retrying in ${seconds(e.delayMs)}`;
    case "plan_retry":
      return `[round ${e.round + 1}] ${e.message} Retrying the plan in ${seconds(e.delayMs)}`;
    case "step_finish": {
      const tokens = e.usage.promptTokens + e.usage.completionTokens;
      const took = seconds(e.at - (starts.get(`${e.round}.${e.step}`) ?? e.at));
      return `[step ${e.step + 1}] done: ${tokens}${e.usage.estimated ? " (estimated)" : ""} tokens, ${formatCost(e.cost)}, ${took}`;
    }
    case "step_error":
      return `[step ${e.step + 1}] failed: ${e.message}`;
    case "step_cancel":
      return `[step ${e.step + 1}] cancelled`;
    case "step_skip":
      return `[step ${e.step + 1}] skipped: ${e.message}`;
    case "run_finish":
      return `[run] ${e.status} (${e.reason})${e.message ? `: ${e.message}` : ""}`;
    case "round_start":
    case "run_start":
    case "plan_delta":
    case "plan_reasoning":
    case "step_reasoning":
    case "step_queued":
    case "step_delta":
    case "round_finish":
      return null;
  }
}

async function runCommand(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { config: { type: "string" }, question: { type: "string" }, out: { type: "string" } },
  });
  if (!values.config) throw new UsageError("--config FILE is required.");
  if (!values.question?.trim()) throw new UsageError("--question TEXT is required.");
  let text: string;
  try {
    text = await readFile(values.config, "utf8");
  } catch (e: unknown) {
    io.stderr(
      `Cannot read the config file ${values.config}: ${e instanceof Error ? e.message : String(e)}\n`,
    );
    return 2;
  }
  const resolved = resolveConfig(text, io.env);
  if (!resolved.ok) {
    io.stderr(`${resolved.message}\n`);
    return 2;
  }
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once("SIGINT", onSignal);
  const starts = new Map<string, number>();
  let record: RunRecord;
  try {
    record = await runQuestion(createEngine(resolved), {
      question: values.question,
      context: [],
      signal: controller.signal,
      onEvent: (event, after) => {
        const names = after.rounds.at(-1)?.steps.map((s) => s.workerName) ?? [];
        const line = progressLine(event, starts, names);
        if (line) io.stderr(`${line}\n`);
      },
    });
  } finally {
    process.off("SIGINT", onSignal);
  }
  const json = exportRun(record);
  if (values.out) {
    try {
      await writeFile(values.out, json);
    } catch (e: unknown) {
      // The run has been paid for: never lose its record to a bad --out path.
      const why = e instanceof Error ? e.message : String(e);
      io.stderr(`Cannot write the run record to ${values.out} (${why}); writing it to stdout.\n`);
      io.stdout(json);
      return 1;
    }
  } else io.stdout(json);
  if (record.endReason === "plan_error") return 2;
  return record.status === "done" && record.answer !== null ? 0 : 1;
}

/** The CLI entry: returns the exit code. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (!command || command === "--help" || command === "-h" || command === "help") {
      io.stdout(HELP);
      return 0;
    }
    if (command === "parse") return await parseCommand(rest, io);
    if (command === "run") return await runCommand(rest, io);
    if (command === "serve") return await serveCommand(rest, io);
    if (command === "eval") return await evalCommand(rest, io);
    if (command === "grammar") return grammarCommand(rest, io);
    if (command === "score") return await scoreCommand.run(rest, io);
    throw new UsageError(`Unknown command "${command}".`);
  } catch (e: unknown) {
    if (
      e instanceof UsageError ||
      (e instanceof TypeError && "code" in e && String(e.code).startsWith("ERR_PARSE_ARGS"))
    ) {
      io.stderr(`${e.message}\nRun conductor-studio --help for usage.\n`);
      return 2;
    }
    throw e;
  }
}
