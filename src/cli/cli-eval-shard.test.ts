// `eval --shard I/N` and `eval-merge` against the local test server (scripted, deterministic
// answers): three shards merged equal an unsharded run cell for cell, and what the merged file is
// given to (a resume, eval-diff, --rescore) reads it as an unsharded run's.
import { readFile } from "node:fs/promises";
import { describe } from "vitest";
import type { EvalResult } from "../engine/eval/schema.ts";
import { resultKey } from "../engine/eval/schema.ts";
import {
  CLI_TIMEOUT_MS,
  cliIt,
  evalArgs,
  readEvalResults,
  runMain,
} from "../test-support/cli/cli-harness.ts";
import type { Harness } from "../test-support/cli/cli-harness.ts";
import {
  SOLVER_THEN_CHECKER_PLAN,
  chatCount,
  plusOneItems,
  scriptPlusOne,
  writeEvalFiles,
} from "../test-support/cli/eval-setups.ts";

const ITEMS = plusOneItems([3, 8, 20, 41, 6, 12]);

async function setup(h: Harness) {
  scriptPlusOne(h.server, {
    "conductor-7b": SOLVER_THEN_CHECKER_PLAN,
    "solver-a": (n) => `Answer: ${n + 1}`,
    // Solver B is right on even questions only, so verdicts differ per cell.
    "solver-b": (n) => `Answer: ${(n + 1) % 2 === 1 ? n + 1 : 0}`,
    checker: (n) => `Answer: ${n + 1}`,
  });
  return writeEvalFiles(h, ITEMS);
}

/** What a cell's result says, without what differs between any two runs (ids, times). */
function cells(rows: EvalResult[]): Map<string, unknown> {
  return new Map(
    rows.map(({ runId: _r, latencyMs: _l, finishedAt: _f, ...rest }) => [resultKey(rest), rest]),
  );
}

describe("eval --shard and eval-merge", { timeout: CLI_TIMEOUT_MS * 3 }, () => {
  cliIt("three shards merged equal an unsharded run cell for cell", async ({ expect, h }) => {
    const files = await setup(h);
    const whole = `${h.dir}/whole.jsonl`;
    expect((await runMain(evalArgs({ ...files, out: whole }, "--repeats", "2"))).code).toBe(0);
    const shards = [0, 1, 2].map((i) => `${h.dir}/shard-${i}.jsonl`);
    const seen: EvalResult[][] = [];
    for (const [i, out] of shards.entries()) {
      // Shard 2 reads its place from the environment, as an array job's task would.
      const r =
        i === 2
          ? await runMain(evalArgs({ ...files, out }, "--repeats", "2"), {
              env: { CONDUCTOR_SHARD: "2", CONDUCTOR_SHARDS: "3" },
            })
          : await runMain(evalArgs({ ...files, out }, "--repeats", "2", "--shard", `${i}/3`));
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`Shard ${i}/3`);
      const side = JSON.parse(await readFile(`${out}.eval.json`, "utf8")) as {
        shard: { index: number; count: number; items: string[] };
        definitionHash: string;
      };
      expect(side.shard).toEqual({ index: i, count: 3, items: ITEMS.map((x) => x.id) });
      expect(side.definitionHash).toMatch(/^sha256:[0-9a-f]{64}$/);
      seen.push(await readEvalResults(out));
    }
    // Every cell ran in exactly one shard, and each shard ran some.
    const keys = seen.flat().map(resultKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(6 * 5 * 2);
    expect(seen.every((s) => s.length > 0)).toBe(true);

    const merged = `${h.dir}/merged.jsonl`;
    const m = await runMain(["eval-merge", ...shards, "--out", merged]);
    expect(m.stderr).toContain("60 cell(s), 0 duplicate line(s) dropped");
    expect(m.code).toBe(0);
    const [a, b] = [cells(await readEvalResults(whole)), cells(await readEvalResults(merged))];
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [k, v] of a) expect(b.get(k)).toEqual(v);
    // Not all right or all wrong: the comparison has something to see.
    expect(new Set([...a.values()].map((v) => (v as EvalResult).correct)).size).toBe(2);

    // A resume of the merged file has nothing left to run, as after an unsharded run.
    h.server.requests.length = 0;
    const resumed = await runMain(evalArgs({ ...files, out: merged }, "--repeats", "2"));
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain("Resuming: 60 result(s)");
    expect(chatCount(h)).toBe(0);
    // eval-diff finds nothing flipped, and --rescore reads it.
    const diff = await runMain(["eval-diff", whole, merged]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain("0 question(s) flipped");
    expect((await runMain(["eval", "--rescore", "--out", merged, "--scorer", "math"])).code).toBe(
      0,
    );
  });

  cliIt(
    "refuses different evaluations, reports missing cells, and never writes over an input",
    async ({ expect, h }) => {
      const files = await setup(h);
      const s0 = `${h.dir}/s0.jsonl`;
      const s1 = `${h.dir}/s1.jsonl`;
      const other = `${h.dir}/other.jsonl`;
      const args = (out: string, ...extra: string[]) =>
        evalArgs({ ...files, out }, "--strategies", "single", ...extra);
      expect((await runMain(args(s0, "--shard", "0/2"))).code).toBe(0);
      expect((await runMain(args(s1, "--shard", "1/2"))).code).toBe(0);
      expect((await runMain(args(other, "--shard", "1/2", "--seed", "7"))).code).toBe(0);

      const out = `${h.dir}/merged.jsonl`;
      const refused = await runMain(["eval-merge", s0, other, "--out", out]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("are results of different evaluations");
      expect(refused.stderr).toContain("--seed 0 → 7");
      await expect(readFile(out, "utf8")).rejects.toThrow();

      const clash = await runMain(["eval-merge", s0, s1, "--out", s1]);
      expect(clash.code).toBe(2);
      expect(clash.stderr).toContain("is an input of this command");

      // Shard 0 alone (twice: duplicates count once): shard 1's cells are missing, each named.
      const part = await runMain(["eval-merge", s0, s0, "--out", out]);
      expect(part.code).toBe(1);
      const own = await readEvalResults(s0);
      expect(part.stderr).toContain(`${own.length} duplicate line(s) dropped`);
      const missing = 6 * 3 - own.length;
      expect(part.stderr).toContain(`Missing ${missing} cell(s) of 18`);
      const s1cells = await readEvalResults(s1);
      for (const c of s1cells.slice(0, 3))
        expect(part.stderr).toContain(`  ${c.item} ${c.strategy} #${c.repeat}`);
      // Resuming the partial merge without --shard runs just the missing cells.
      const resumed = await runMain(evalArgs({ ...files, out }, "--strategies", "single"));
      expect(resumed.code).toBe(0);
      expect(resumed.stderr).toContain(`Resuming: ${own.length} result(s)`);
      expect(await readEvalResults(out)).toHaveLength(18);
    },
  );

  cliIt(
    "refuses a bad shard, half a shard from the environment, and a changed shard on resume",
    async ({ expect, h }) => {
      const files = await setup(h);
      const out = `${h.dir}/r.jsonl`;
      const bad = await runMain(evalArgs({ ...files, out }, "--shard", "3/3"));
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("numbered 0 to 2");
      const half = await runMain(evalArgs({ ...files, out }), { env: { CONDUCTOR_SHARD: "1" } });
      expect(half.code).toBe(2);
      expect(half.stderr).toContain("CONDUCTOR_SHARD and CONDUCTOR_SHARDS go together");
      const args = evalArgs({ ...files, out }, "--strategies", "single:Solver A");
      expect((await runMain([...args, "--shard", "0/2"])).code).toBe(0);
      const changed = await runMain([...args, "--shard", "1/2"]);
      expect(changed.code).toBe(2);
      expect(changed.stderr).toContain("--shard 0/2 → 1/2");
    },
  );
});
