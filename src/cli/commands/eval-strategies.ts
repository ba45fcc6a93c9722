// `--strategies` for eval: names checked (with "did you mean"), the conductor strategy given the
// config's Conductor settings, and the workflow strategy read from an exported run.
import { readFile } from "node:fs/promises";
import type { Strategy } from "../../engine/eval/strategy.ts";
import { parseStrategyList } from "../../engine/eval/strategy.ts";
import { importRun } from "../../engine/run/export.ts";
import type { Pool } from "../../engine/schema/worker.ts";
import { DEFAULT_MAX_STEPS } from "../../engine/constants.ts";
import { UsageError } from "../command.ts";
import type { CliConfig } from "../config.ts";
import { STRATEGY_NAMES } from "./eval-help.ts";
import { didYouMean } from "../suggest.ts";

const ALL = "conductor, single, single:<worker>, moa, chain, best-of-n, workflow";

/** The workflow strategy: an exported workflow whose workers are the config's namesakes. */
async function workflowStrategy(file: string | undefined, pool: Pool): Promise<Strategy> {
  if (!file)
    throw new UsageError("The workflow strategy needs --workflow FILE (an exported workflow).");
  const text = await readFile(file, "utf8").catch(() => null);
  const imported = text === null ? null : importRun(text);
  if (!imported?.ok)
    throw new UsageError(`Cannot use ${file}: ${imported?.message ?? "cannot read it"}`);
  // The workflow's workers are the config's workers of the same name (ids are the studio's).
  const source = imported.record;
  const steps = (source.rounds[0]?.steps ?? []).map((st) => {
    const name = source.pool.find((w) => w.id === st.worker)?.name ?? st.workerName;
    const worker = pool.find((w) => w.name === name) ?? pool.find((w) => w.id === st.worker);
    return { worker: worker?.id ?? "", name, subtask: st.subtask, access: st.access };
  });
  if (steps.length === 0) throw new UsageError(`${file} has no steps.`);
  const lost = steps.find((st) => st.worker === "");
  if (lost)
    throw new UsageError(
      `${file} uses a worker named "${lost.name}", which the config's workers lack; add it or rename one.`,
    );
  return {
    kind: "workflow",
    steps: steps.map(({ worker, subtask, access }) => ({ worker, subtask, access })),
  };
}

/** The strategies `list` names, in order; a UsageError for an unknown name or a missing file. */
export async function chooseStrategies(
  list: string,
  pool: Pool,
  config: CliConfig,
  workflowFile: string | undefined,
): Promise<Strategy[]> {
  const names = list
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError(`--strategies is empty; choose from ${ALL}.`);
  for (const n of names)
    if (!STRATEGY_NAMES.includes(n) && !n.startsWith("single:"))
      throw new UsageError(
        `Unknown strategy "${n}"${didYouMean(n, STRATEGY_NAMES)}; the strategies are ${ALL}.`,
      );
  const fixed = names.filter((n) => n !== "workflow");
  const parsed = fixed.length
    ? parseStrategyList(fixed.join(","), pool)
    : { ok: true as const, strategies: [] };
  if (!parsed.ok) {
    const name = /No worker named "(.*)"/.exec(parsed.message)?.[1];
    const hint =
      name === undefined
        ? ""
        : didYouMean(
            name,
            pool.map((w) => w.name),
          );
    throw new UsageError(`${parsed.message.replace(/\.$/, "")}${hint}.`);
  }
  // The conductor strategy is the config's Conductor: its refinement rounds and step cap (kept
  // out of the record at the default, so definitions written before it still match).
  const conductor: Strategy = {
    kind: "conductor",
    rounds: config.rounds,
    ...(config.maxSteps === DEFAULT_MAX_STEPS ? {} : { maxSteps: config.maxSteps }),
  };
  const chosen: Strategy[] = parsed.strategies.map((s) => (s.kind === "conductor" ? conductor : s));
  if (names.includes("workflow")) chosen.push(await workflowStrategy(workflowFile, pool));
  return chosen;
}
