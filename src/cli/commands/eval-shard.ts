// `eval --shard I/N` (or CONDUCTOR_SHARD / CONDUCTOR_SHARDS, so an array job needs no per-task
// flags) and the definition hash that tells whether two results files are of one evaluation.
import { createHash } from "node:crypto";
import { canonicalJson } from "../../engine/llm/cache.ts";
import type { Shard } from "../../engine/eval/shard.ts";
import { parseShard } from "../../engine/eval/shard.ts";
import { UsageError } from "../command.ts";
import type { StoredDefinition } from "./eval-resume.ts";

/**
 * `--shard I/N`, else `CONDUCTOR_SHARD=I` with `CONDUCTOR_SHARDS=N`; undefined when neither is
 * given. A half-given or malformed shard is a UsageError: running every cell on every task of an
 * array job would pay N times for the evaluation.
 */
export function shardOption(value: string | undefined, env: NodeJS.ProcessEnv): Shard | undefined {
  const index = env.CONDUCTOR_SHARD?.trim();
  const count = env.CONDUCTOR_SHARDS?.trim();
  let text = value;
  let from = "--shard";
  if (text === undefined && (index || count)) {
    if (!index || !count)
      throw new UsageError(
        "CONDUCTOR_SHARD and CONDUCTOR_SHARDS go together (the shard's index from 0, and how many shards).",
      );
    text = `${index}/${count}`;
    from = "CONDUCTOR_SHARD/CONDUCTOR_SHARDS";
  }
  if (text === undefined) return undefined;
  const parsed = parseShard(text);
  if (!parsed.ok) throw new UsageError(`${from}: ${parsed.message}`);
  return parsed.shard;
}

/**
 * What makes two results files cells of one evaluation: everything that changes an answer or a
 * verdict, nothing that names the run (id, name, createdAt, the file's paths) or only paces it
 * (concurrency, the spending cap). Worker ids and headers are left out as definitionChanges does.
 */
function identity(d: StoredDefinition): unknown {
  const { headers: _h, ...conductor } = d.conductor ?? { headers: undefined };
  return {
    dataset: { hash: d.dataset.hash, mapping: d.dataset.mapping, source: d.dataset.source },
    instruction: d.instruction,
    strategies: d.strategies,
    repeats: d.repeats,
    seed: d.seed,
    scorer: d.scorer,
    pool: d.pool.map(({ id: _id, headers: _hd, ...w }) => w),
    conductor: d.conductor ? conductor : null,
    runSettings: d.runSettings ?? { namedWorkers: false, maxCalls: null },
  };
}

/** `sha256:` and the hex of the definition's identity, the same on every machine. */
export function definitionHash(d: StoredDefinition): string {
  const hex = createHash("sha256")
    .update(canonicalJson(identity(d)), "utf8")
    .digest("hex");
  return `sha256:${hex}`;
}
