// Sharding an evaluation across machines: every (item, strategy, repeat) cell belongs to exactly
// one of N shards, chosen by a hash of the cell's identity (never its position), so the split is
// the same on every machine and does not change when the question file is reordered.
import type { Failure } from "../errors.ts";
import { ErrorCode } from "../errors.ts";
import { fnv1a64 } from "./dataset/hash.ts";
import type { EvalResult } from "./schema.ts";
import { resultKey } from "./schema.ts";

/** Shard `index` of `count` (0-based: an array job's task index as it comes). */
export interface Shard {
  index: number;
  count: number;
}

export type ShardParse = { ok: true; shard: Shard } | ({ ok: false } & Failure);

/** Reads `I/N` (0 <= I < N); the message says what was wrong. */
export function parseShard(text: string): ShardParse {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || !Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1)
    return {
      ok: false,
      code: ErrorCode.invalid_argument,
      message: `a shard is I/N with N of at least 1, got "${text}".`,
    };
  if (index >= count)
    return {
      ok: false,
      code: ErrorCode.invalid_argument,
      message: `shard index ${index} is out of range: shards of ${count} are numbered 0 to ${count - 1}.`,
    };
  return { ok: true, shard: { index, count } };
}

/** `I/N`, as parseShard reads it. */
export function shardText(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/** MurmurHash3's finaliser: every input bit reaches every output bit. */
function fmix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The shard (0 to count - 1) a cell belongs to: FNV-1a (64 bits) of its result key, each half
 * mixed (FNV's low bits follow the last characters, so cells differing in the repeat alone would
 * fall into consecutive shards), mod count. Changing this re-splits running evaluations.
 */
export function shardOfCell(
  cell: Pick<EvalResult, "item" | "strategy" | "repeat">,
  count: number,
): number {
  if (count <= 1) return 0;
  const hex = fnv1a64(resultKey(cell));
  const hi = BigInt(fmix32(parseInt(hex.slice(0, 8), 16)));
  const lo = BigInt(fmix32(parseInt(hex.slice(8), 16)));
  return Number(((hi << 32n) | lo) % BigInt(count));
}

/** Whether `cell` is one of `shard`'s (every cell is when there is no shard). */
export function inShard(
  cell: Pick<EvalResult, "item" | "strategy" | "repeat">,
  shard: Shard | undefined,
): boolean {
  return !shard || shardOfCell(cell, shard.count) === shard.index;
}
