// `conductor-studio eval`: a question set through several strategies, scored, summarised.
import { writeFile } from "node:fs/promises";
import type { Sandbox } from "../../engine/eval/code/pool.ts";
import { withCache } from "../../engine/llm/cache.ts";
import type { ChatBackend } from "../../engine/llm/types.ts";
import type { ConductorConfig } from "../../engine/schema/worker.ts";
import { type CliCommand, type Io } from "../command.ts";
import { openResponseCache } from "../cache-store.ts";
import { EXIT } from "../exit-codes.ts";
import { ggufConductor } from "../gguf/conductor.ts";
import { backendFor as kitBackendFor } from "../kit/backend.ts";
import { parseOptions } from "../options.ts";
import { otlpExporter } from "../otlp-export.ts";
import type { BackendFor } from "./eval-definition.ts";
import { defineEvaluation } from "./eval-definition.ts";
import { EVAL_HELP, EVAL_SHAPE } from "./eval-help.ts";
import {
  checkOptions,
  checkedStrategies,
  chooseScorer,
  loadEvalConfig,
  loadQuestions,
} from "./eval-inputs.ts";
import { presetList } from "./eval-preset.ts";
import { EvalProgressDisplay, countingCalls } from "./eval-progress.ts";
import { rescoreFile } from "./eval-rescore.ts";
import { sidecarOf, startOrResume } from "./eval-resume.ts";
import type { EvalSession } from "./eval-run.ts";
import { runWithProgress, summarise } from "./eval-run.ts";

/** The code scorer's Node sandbox, started on the first answer scored; disposed when the command ends. */
function codeSandboxHolder(io: Io, unconfined: boolean) {
  let made: Promise<Sandbox> | null = null;
  return {
    get: () =>
      (made ??= import("../../node/sandbox/process.ts").then((m) => {
        const sandbox = m.createNodeSandbox({ unconfined });
        io.stderr(`Starting the Python sandbox (${m.nodeSandboxName(unconfined)})…\n`);
        return sandbox;
      })),
    /** Ends the sandbox's interpreter processes, so the command can exit. */
    dispose: async () => (await made?.catch(() => null))?.dispose(),
  };
}

async function run(args: string[], io: Io): Promise<number> {
  // Read here (parseOptions checks it again): the sandbox is made before the options are parsed.
  const code = codeSandboxHolder(io, args.includes("--unconfined-code"));
  try {
    return await evalWith(args, io, code.get);
  } finally {
    await code.dispose();
  }
}

/** The config's Conductor endpoint as a backend (cached and counted as the workers are). */
function remoteConductor(conductor: ConductorConfig, backendFor: BackendFor): ChatBackend {
  return backendFor({
    id: "conductor",
    baseURL: conductor.baseURL,
    model: conductor.model,
    headers: conductor.headers,
    price: conductor.price,
  });
}

/**
 * `eval` in its steps: the inputs checked, the definition built through the engine's core, the
 * resume checked, the session run with its progress, then the summary and the exit code.
 */
async function evalWith(
  args: string[],
  io: Io,
  codeSandbox: () => Promise<Sandbox>,
): Promise<number> {
  const { values } = parseOptions(EVAL_SHAPE, args);
  if (values.rescore) return rescoreFile(values, io, codeSandbox);
  const usage = (m: string) => (io.stderr(`${m}\n`), EXIT.usage);
  // Nothing is queued before the first result, so the early returns below leave nothing unsent.
  const otlp = otlpExporter(values, io);
  if (values["list-presets"]) {
    io.stdout(`${presetList()}\n`);
    return EXIT.ok;
  }
  const o = checkOptions(values, io.env);
  const configs = await loadEvalConfig(values, o.config, io);
  if (!configs.ok) return usage(configs.message);
  const { loaded, resolved } = configs.value;
  const questions = await loadQuestions(values, o, io);
  if (!questions.ok) return usage(questions.message);
  const chosen = await checkedStrategies(values, resolved);
  const scorer = await chooseScorer(values, o.preset, questions.value.items);
  if (!scorer.ok) return usage(scorer.message);
  const display = new EvalProgressDisplay(io.stderr, {
    tty: io.stderrIsTTY ?? false,
    columns: io.columns ?? 80,
  });
  // Opened here, where the finally below closes it (a Redis connection). Repeats stay independent
  // samples; a re-run of the same evaluation is answered from the cache.
  const cache = await openResponseCache(values.cache, values["cache-mode"], "distinct", (line) =>
    io.stderr(`${line}\n`),
  );
  let gguf: Awaited<ReturnType<typeof ggufConductor>> | undefined;
  try {
    const backendFor: BackendFor = (w) => {
      const backend = kitBackendFor(resolved, w.id, w);
      return countingCalls(cache ? withCache(backend, cache, w) : backend, display.counter);
    };
    const inputs = { values, o, resolved, questions: questions.value, chosen, codeSandbox };
    const defined = await defineEvaluation({ ...inputs, scorerId: scorer.value, backendFor });
    if (!defined.ok) return usage(defined.message);
    const { evaluation } = defined.value;
    const trainingFile = values["training-data"];
    const read = [values.config, values.dataset, values.workflow].filter((f) => f !== undefined);
    const files = { out: o.out, trainingFile, inputs: read, fresh: values.new ?? false };
    const refused = await startOrResume(files, evaluation, io.stderr);
    if (refused) return usage(refused);
    // Loaded after every usage check, so a refused command never waits on llama.cpp; the finally
    // below frees it.
    const ggufFile = values["conductor-gguf"];
    gguf = ggufFile ? await ggufConductor(ggufFile, loaded) : undefined;
    await writeFile(sidecarOf(o.out), `${JSON.stringify(evaluation, null, 2)}\n`);
    const conductorBackend = gguf?.backend ?? remoteConductor(resolved.conductor, backendFor);
    const session: EvalSession = {
      ...defined.value,
      values,
      o,
      io,
      config: resolved.config,
      chosen,
      items: questions.value.items,
      backendFor,
      conductorBackend,
      display,
      otlp,
    };
    return await summarise(session, await runWithProgress(session), cache);
  } finally {
    display.stop();
    await gguf?.backend.unload();
    await otlp?.close();
    await cache?.store.close?.();
  }
}

export const evalCommand: CliCommand = {
  name: "eval",
  summary: "run a question set through several strategies, score the answers, compare them",
  help: EVAL_HELP,
  run,
};
