import { describe, expect, it } from "vitest";
import { line } from "../../test-support/engine/eval/eval-results.ts";
import { mergeResults } from "./merge.ts";
import { inShard, parseShard, shardOfCell } from "./shard.ts";

describe("shards", () => {
  it("reads I/N and refuses what is not one", () => {
    expect(parseShard("2/3")).toEqual({ ok: true, shard: { index: 2, count: 3 } });
    expect(parseShard(" 0 / 1 ")).toEqual({ ok: true, shard: { index: 0, count: 1 } });
    for (const bad of ["3/3", "1/0", "a/3", "1", "-1/3", "1.5/3"])
      expect(parseShard(bad).ok, bad).toBe(false);
  });

  it("puts each cell in one shard by its identity, the same on every machine", () => {
    // Pinned: a change to the hash would split a running evaluation's cells differently.
    expect(shardOfCell({ item: "q1", strategy: "conductor", repeat: 0 }, 3)).toBe(
      shardOfCell({ repeat: 0, strategy: "conductor", item: "q1" }, 3),
    );
    expect([0, 1, 2, 3].map((r) => shardOfCell({ item: "q1", strategy: "moa", repeat: r }, 4)))
      .toMatchInlineSnapshot(`
      [
        1,
        0,
        0,
        1,
      ]
    `);
    const counts = [0, 0, 0];
    for (let i = 0; i < 3000; i++)
      counts[shardOfCell({ item: `item-${i}`, strategy: "single:A", repeat: i % 2 }, 3)]!++;
    // Roughly even: each shard within 10% of a third.
    for (const c of counts) expect(Math.abs(c - 1000)).toBeLessThan(100);
    const cell = { item: "q9", strategy: "single", repeat: 1 };
    expect([0, 1, 2].filter((index) => inShard(cell, { index, count: 3 }))).toHaveLength(1);
    expect(inShard(cell, undefined)).toBe(true);
  });

  it("merges one result per cell in dataset order, a verdict over an error, and lists the holes", () => {
    const ok = line("single:w", "q2", true, "a");
    const failed = {
      ...line("single:w", "q1", null, "b"),
      error: { stage: "worker" as const, code: "network", message: "down" },
    };
    const fixed = { ...line("single:w", "q1", false, "c"), finishedAt: 1 };
    const merged = mergeResults([[failed, ok], [fixed]], ["q1", "q2", "q3"], ["single:w"], 1);
    expect(merged.results.map((r) => [r.item, r.correct])).toEqual([
      ["q1", false],
      ["q2", true],
    ]);
    expect(merged.duplicates).toBe(1);
    expect(merged.missing).toEqual([{ item: "q3", strategy: "single:w", repeat: 0 }]);
  });
});
