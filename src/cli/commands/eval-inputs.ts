// `eval`'s inputs, read and checked in the order the user meets them: the options, the config, the
// questions (a file or a preset), the strategies and the scorer. A bad one is refused with its message
// before anything runs.
import { basename } from "node:path";
import { columnsNote, columnsOf } from "../../engine/eval/columns.ts";
import { parseColumnsOption } from "../../engine/eval/dataset/parse.ts";
import type { DateWindow } from "../../engine/eval/dataset/livecodebench.ts";
import type { BenchmarkPreset } from "../../engine/eval/dataset/presets.ts";
import type { ColumnMapping, EvalItem } from "../../engine/eval/dataset/item-schema.ts";
import { DEFAULT_COLUMNS } from "../../engine/eval/dataset/item-schema.ts";
import { scorerKind } from "../../engine/eval/scorers/kinds.ts";
import { defaultScorerId, scorerIds } from "../../engine/eval/scorers/registry.ts";
import type { Shard } from "../../engine/eval/shard.ts";
import type { Strategy } from "../../engine/eval/strategy.ts";
import { strategyName } from "../../engine/eval/strategy.ts";
import type { RewardScheme } from "../../engine/eval/training/reward.ts";
import { parseRewardOption } from "../../engine/eval/training/reward.ts";
import { type Io, UsageError } from "../command.ts";
import type { ResolvedConfig } from "../config.ts";
import { loadConfig } from "../config.ts";
import { ggufResolved } from "../gguf/conductor.ts";
import type { OptionValues } from "../options.ts";
import { intOption } from "../options.ts";
import { cacheOption } from "../serve/options.ts";
import { didYouMean } from "../suggest.ts";
import type { Loaded } from "./eval-files.ts";
import { loadDataset } from "./eval-files.ts";
import type { EVAL_SHAPE } from "./eval-help.ts";
import { dateWindow, hubBases, loadPresetDataset, presetById, tokenFrom } from "./eval-preset.ts";
import { shardOption } from "./eval-shard.ts";
import { chooseStrategies } from "./eval-strategies.ts";

export type EvalValues = OptionValues<(typeof EVAL_SHAPE)["options"]>;

/** The options that need no file read, checked. */
export interface EvalOptions {
  config: string;
  out: string;
  preset: BenchmarkPreset | null;
  window: DateWindow;
  hfToken: string | undefined;
  shard: Shard | undefined;
  repeats: number;
  concurrency: number;
  seed: number;
  reward: RewardScheme;
  /** The code scorer's cap on a problem's time limit (--max-time-limit), when given. */
  codeCap: { maxTimeLimitMs?: number };
  maxCost: number | null;
}

/** The questions of the evaluation, the columns they were read by, and the name it records. */
export interface Questions {
  items: EvalItem[];
  hash: string;
  mapping: ColumnMapping;
  name: string;
}

/** Checks the options that need no file; a bad one is a UsageError. */
export function checkOptions(values: EvalValues, env: Io["env"]): EvalOptions {
  const preset = values.preset === undefined ? null : presetById(values.preset);
  if (!values.config || !(values.dataset || preset) || !values.out)
    throw new UsageError("--config, --out and --dataset (or --preset) are required.");
  if (!preset && (values.release || values.since || values.until || values["hf-token-env"]))
    throw new UsageError("--release, --since, --until and --hf-token-env go with --preset.");
  const window = dateWindow(values.since, values.until);
  const hfToken = tokenFrom(values["hf-token-env"], env);
  const shard = shardOption(values.shard, env);
  const repeats = intOption(values.repeats, "repeats", { min: 1, fallback: 1 });
  const concurrency = intOption(values.concurrency, "concurrency", { min: 1, fallback: 4 });
  const seed = intOption(values.seed, "seed", { min: 0, fallback: 0 });
  const maxTime = values["max-time-limit"] === undefined ? null : Number(values["max-time-limit"]);
  if (maxTime !== null && !(Number.isFinite(maxTime) && maxTime >= 1))
    throw new UsageError(
      `--max-time-limit must be a number of seconds of at least 1, got "${values["max-time-limit"]}".`,
    );
  const reward = parseRewardOption(values.reward ?? "paper");
  if (typeof reward === "string") throw new UsageError(reward);
  const codeCap = maxTime === null ? {} : { maxTimeLimitMs: Math.round(maxTime * 1000) };
  const maxCost = values["max-cost"] === undefined ? null : Number(values["max-cost"]);
  if (maxCost !== null && !(Number.isFinite(maxCost) && maxCost > 0))
    throw new UsageError(
      `--max-cost must be a number of dollars above 0, got "${values["max-cost"]}".`,
    );
  // A bad --cache-mode is refused before anything is read; the cache opens later.
  cacheOption(values.cache, values["cache-mode"]);
  const { config, out } = values;
  return {
    config,
    out,
    preset,
    window,
    hfToken,
    shard,
    repeats,
    concurrency,
    seed,
    reward,
    codeCap,
    maxCost,
  };
}

/**
 * The config as read (`loaded`, what a local GGUF Conductor is loaded from) and as the evaluation
 * records it (`resolved`): a local GGUF Conductor is recorded now and loaded only once the run starts.
 */
export async function loadEvalConfig(
  values: EvalValues,
  file: string,
  io: Io,
): Promise<Loaded<{ loaded: ResolvedConfig; resolved: ResolvedConfig }>> {
  const read = await loadConfig(file, io.env, {
    strict: values.strict ?? false,
    warn: (line) => io.stderr(`${line}\n`),
  });
  if (!read.ok) return { ok: false, message: read.message };
  const ggufFile = values["conductor-gguf"];
  const resolved = ggufFile ? ggufResolved(ggufFile, read.resolved) : read.resolved;
  return { ok: true, value: { loaded: read.resolved, resolved } };
}

/**
 * The questions, from --dataset or the preset. A bad --columns is refused before the file is read.
 * The file's columns are found by name as the studio finds them (engine/eval/columns.ts), and
 * --columns overrides what it names.
 */
export async function loadQuestions(
  values: EvalValues,
  o: EvalOptions,
  io: Io,
): Promise<Loaded<Questions>> {
  const columns = values.columns ?? "";
  const checked = parseColumnsOption(columns, DEFAULT_COLUMNS);
  if (!checked.ok) return { ok: false, message: checked.message };
  const { preset } = o;
  const data = preset
    ? await loadPresetDataset(preset, {
        ...(values.dataset ? { file: values.dataset } : {}),
        ...(values.release ? { config: values.release } : {}),
        ...(o.hfToken ? { token: o.hfToken } : {}),
        window: o.window,
        skipBad: values["skip-bad-rows"] ?? false,
        warn: io.stderr,
        hub: hubBases(io.env),
      })
    : await loadDataset(
        values.dataset ?? "",
        (seen) => columnsOf(seen, columns),
        values["skip-bad-rows"] ?? false,
        io.stderr,
      );
  if (!data.ok) return data;
  const name = preset && "name" in data.value ? data.value.name : basename(values.dataset ?? "");
  const { items, hash, mapping } = data.value;
  // A column read under another name than its field's is said, so a guess never passes unseen.
  const note = columnsNote(mapping);
  if (note) io.stderr(`${note}\n`);
  return { ok: true, value: { items, hash, mapping, name: String(name) } };
}

/** The strategies of --strategies; the options that need a Conductor strategy are refused without one. */
export async function checkedStrategies(
  values: EvalValues,
  { pool, config }: ResolvedConfig,
): Promise<Strategy[]> {
  const chosen = await chooseStrategies(
    values.strategies ?? "conductor,single,moa",
    pool,
    config,
    values.workflow,
  );
  const names = () => chosen.map(strategyName).join(", ");
  if (values["conductor-gguf"] && !chosen.some((s) => s.kind === "conductor"))
    throw new UsageError(
      `--conductor-gguf plans with a local Conductor, but --strategies has no conductor (${names()}). Add conductor, or drop --conductor-gguf.`,
    );
  if (values["training-data"] && !chosen.some((s) => s.kind === "conductor"))
    throw new UsageError(
      `--training-data writes the Conductor's samples, but --strategies has no conductor (${names()}). Add conductor, or drop --training-data.`,
    );
  return chosen;
}

/**
 * The scorer's id: --scorer, else the preset's, else the one the questions call for. The code
 * scorer is refused where its sandbox cannot run.
 */
export async function chooseScorer(
  values: EvalValues,
  preset: BenchmarkPreset | null,
  items: readonly EvalItem[],
): Promise<Loaded<string>> {
  if (values.scorer !== undefined && !scorerIds().includes(values.scorer))
    throw new UsageError(
      `Unknown scorer "${values.scorer}"${didYouMean(values.scorer, scorerIds())}; the scorers are ${scorerIds().join(", ")}.`,
    );
  const scorerId = values.scorer ?? preset?.scorer ?? defaultScorerId(items);
  if (scorerKind(scorerId).runsCode) {
    const { nodeSandboxRefusal } = await import("../../node/sandbox/process.ts");
    const refusal = nodeSandboxRefusal(values["unconfined-code"] ?? false);
    if (refusal) return { ok: false, message: refusal };
  }
  return { ok: true, value: scorerId };
}
