import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../eval/dataset/shuffle.ts";
import { paperPool } from "../pool/paper.ts";
import { exportPool, importPool } from "../pool/transfer.ts";
import type { RoundRecord, RunRecord } from "../schema/record.ts";
import type { Worker } from "../schema/worker.ts";
import { importRunChecked } from "./validate.ts";

/**
 * Generated mutations of real run and pool files (seeded, so every run of the suite tries the same
 * cases): no file may make an importer throw, pollute Object.prototype, or be accepted while it
 * breaks an invariant. The invariants are restated here on their own, not taken from validate.ts.
 */

const RUN_CASES = 8000;
const POOL_CASES = 4000;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Container = Json[] | { [k: string]: Json };

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
/** The fixtures with long texts cut short: the same structure, a fifth of the bytes to parse. */
const short = (text: string) =>
  JSON.stringify(
    JSON.parse(text, (_k, v: unknown) => (typeof v === "string" ? v.slice(0, 24) : v)),
  );
const BASES = ["run-v1.json", "run-v2-nested.json", "run-v3-nested.json", "run-v4-nested.json"].map(
  (name) => short(fixture(name)),
);
const POOL_BASE = exportPool(paperPool());

function containers(root: Json): Container[] {
  const out: Container[] = [];
  const stack: Json[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) continue;
    out.push(v);
    stack.push(...(Array.isArray(v) ? v : Object.values(v)));
  }
  return out;
}

function mutate(root: Json, rnd: () => number): void {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const all = containers(root);
  const target = pick(all);
  const keys: (string | number)[] = Array.isArray(target)
    ? target.map((_, i) => i)
    : Object.keys(target);
  const values: Json[] = [
    null,
    true,
    0,
    -1,
    1,
    2,
    3,
    5,
    6,
    99,
    1.5,
    1e308,
    "",
    " ",
    "all",
    "x".repeat(300),
    "javascript:alert(1)",
    "file:///etc/passwd",
    "http://evil.example/v1",
    "__proto__",
    "conductor",
    [],
    {},
    [0],
    [1],
    [2],
    [5],
    [0, 0],
    ["all"],
    { polluted: true },
  ];
  const set = (k: string | number, v: Json) => {
    if (typeof k === "number" && Array.isArray(target)) target[k] = v;
    else if (Array.isArray(target)) target.push(v);
    else
      Object.defineProperty(target, k, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  };
  const op = Math.floor(rnd() * 7);
  const k = keys.length ? pick(keys) : 0;
  const current = Array.isArray(target) ? target[k as number] : target[k as string];
  switch (op) {
    case 0:
      return set(k, pick(values));
    case 1:
      if (Array.isArray(target)) target.splice(k as number, 1);
      else delete target[k as string];
      return;
    case 2:
      if (Array.isArray(target) && current !== undefined) target.push(structuredClone(current));
      else set(pick(["__proto__", "constructor", "key", "apiKey", "nested"]), { polluted: true });
      return;
    case 3:
      if (typeof current === "number") return set(k, current + pick([-1, 1, 2, 10, 0.5]));
      return set(k, pick(values));
    case 4: {
      // A container from elsewhere in the file, dropped here (a step into a pool, a round into a step).
      const other = pick(all);
      return set(k, structuredClone(other));
    }
    case 5:
      if (Array.isArray(target) && target.length > 1) target.reverse();
      return;
    default:
      if (typeof current === "string") return set(k, `${current}${pick(["0", "/", ":", " "])}`);
      return set(k, pick(values));
  }
}

function mutated(base: string, rnd: () => number): string {
  if (rnd() < 0.002) return base.slice(0, Math.floor(rnd() * base.length));
  const doc = JSON.parse(base) as Json;
  const n = 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < n; i++) mutate(doc, rnd);
  return JSON.stringify(doc);
}

/** The pool invariants, stated afresh. */
function poolBroken(pool: readonly Worker[]): string | null {
  if (pool.length > 200) return "too many workers";
  const ids = new Set(pool.map((w) => w.id));
  if (ids.size !== pool.length) return "duplicate ids";
  for (const w of pool) {
    if (!w.id.trim()) return "blank id";
    if (w.id === "conductor" || [...w.id].some((c) => c.charCodeAt(0) < 32)) return "reserved id";
    if (w.baseURL && !/^https?:\/\/[^/]/i.test(w.baseURL)) return `base URL ${w.baseURL}`;
    for (const [name, value] of Object.entries(w.headers ?? {}))
      if (!(w.plainHeaders ?? []).includes(name) && value !== "[redacted]")
        return `header ${name} kept a secret value`;
  }
  return null;
}

/** The protocol invariants of rounds, stated afresh. */
function roundsBroken(r: RunRecord, rounds: readonly RoundRecord[], depth: number): string | null {
  for (const [ri, round] of rounds.entries()) {
    if (round.index !== ri || round.steps.length > r.maxSteps) return `round ${ri}`;
    const l = round.lists;
    if (l) {
      const n = l.model_id.length;
      if (l.subtasks.length !== n || l.access_list.length !== n || n > r.maxSteps) return "lists";
      if (l.model_id.some((m) => !(m >= 0 && m < l.workerIds.length))) return "lists model id";
      for (const [i, a] of l.access_list.entries())
        if (a !== "all" && a.some((x) => x >= i)) return "lists access";
    }
    for (const [si, s] of round.steps.entries()) {
      const worker = r.pool.find((w) => w.id === s.worker);
      if (s.index !== si || !worker) return `step ${si}`;
      if (s.access !== "all" && s.access.some((x) => x >= si)) return `step ${si} access`;
      if (s.nested) {
        if (worker.kind !== "conductor" || s.nested.depth !== depth + 1) return "nested";
        const inner = roundsBroken(r, s.nested.rounds, depth + 1);
        if (inner) return inner;
      }
    }
  }
  return null;
}

function polluted(): boolean {
  return "polluted" in Object.prototype || "polluted" in Array.prototype;
}

describe("generated mutations of run and pool files", () => {
  it(
    `${RUN_CASES} mutated run files: no throw, no accepted file that breaks an invariant`,
    { timeout: 60_000 },
    () => {
      const rnd = seededRandom(11);
      const tally = { accepted: 0, refused: 0, throws: 0, broken: [] as string[] };
      for (let i = 0; i < RUN_CASES; i++) {
        const text = mutated(BASES[i % BASES.length] as string, rnd);
        try {
          const result = importRunChecked(text);
          if (!result.ok) {
            tally.refused++;
            expect(result.message.length).toBeLessThan(700);
            continue;
          }
          tally.accepted++;
          const why =
            poolBroken(result.record.pool) ?? roundsBroken(result.record, result.record.rounds, 0);
          if (why) tally.broken.push(`${why}: ${text.slice(0, 200)}`);
        } catch (e: unknown) {
          tally.throws++;
          tally.broken.push(`threw ${String(e)}`);
        }
      }
      console.log(
        `run files: ${tally.accepted} accepted, ${tally.refused} refused, ${tally.throws} threw`,
      );
      expect(tally.broken.slice(0, 5)).toEqual([]);
      expect(tally.throws).toBe(0);
      expect(polluted()).toBe(false);
      // The generator must exercise both outcomes, or the test proves nothing.
      expect(tally.accepted).toBeGreaterThan(RUN_CASES / 10);
      expect(tally.refused).toBeGreaterThan(RUN_CASES / 10);
    },
  );

  it(
    `${POOL_CASES} mutated pool files: no throw, no accepted pool that breaks an invariant`,
    { timeout: 60_000 },
    () => {
      const rnd = seededRandom(23);
      let accepted = 0;
      const broken: string[] = [];
      for (let i = 0; i < POOL_CASES; i++) {
        const text = mutated(POOL_BASE, rnd);
        try {
          const result = importPool(text);
          if (!result.ok) continue;
          accepted++;
          const why = poolBroken(result.workers);
          if (why) broken.push(`${why}: ${text.slice(0, 200)}`);
        } catch (e: unknown) {
          broken.push(`threw ${String(e)}`);
        }
      }
      console.log(`pool files: ${accepted} accepted, ${POOL_CASES - accepted} refused`);
      expect(broken.slice(0, 5)).toEqual([]);
      expect(polluted()).toBe(false);
      expect(accepted).toBeGreaterThan(POOL_CASES / 10);
      expect(accepted).toBeLessThan(POOL_CASES);
    },
  );
});
