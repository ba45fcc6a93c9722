// `conductor-studio eval-diff A B` on two results files: first as a child process (runCli), then
// through main in this process (runMain).
import { describe } from "vitest";
import { line } from "../test-support/engine/eval/eval-results.ts";
import { CLI_TIMEOUT_MS, cliIt, runCli, runMain } from "../test-support/cli/cli-harness.ts";

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

describe("conductor-studio eval-diff", { timeout: CLI_TIMEOUT_MS * 2 }, () => {
  cliIt(
    "prints the changes and the flipped items; refuses different question sets",
    async ({ expect, h }) => {
      const items = ["q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8"];
      const a = await h.file("a.jsonl", jsonl(items.map((q) => line("single:w", q, false, "a"))));
      const b = await h.file("b.jsonl", jsonl(items.map((q) => line("single:w", q, true, "b"))));
      const r = await runCli(["eval-diff", a, b]);
      expect(r.code).toBe(0);
      // 8 discordant questions, all B's: McNemar p = 2 / 2^8 = 0.0078.
      expect(r.stdout).toMatch(
        /^single:w\s+0\.0\s+100\.0\s+\+100\.0\s+\+100\.0 to \+100\.0\s+0\.008\s+8$/m,
      );
      expect(r.stdout).toContain("8 question(s) flipped:");
      expect(r.stdout).toContain(
        "  q1  single:w: wrong -> right  (A runs a-single:w-q1-0; B runs b-single:w-q1-0)",
      );
      const json = await runMain(["eval-diff", a, b, "--json"]);
      const parsed = JSON.parse(json.stdout) as {
        flipped: unknown[];
        strategies: { change: { p: number } }[];
      };
      expect(parsed.flipped).toHaveLength(8);
      expect(parsed.strategies[0]!.change.p).toBeCloseTo(2 / 256, 12);

      await h.file("a.jsonl.eval.json", sidecar("fnv1a64:aaaa"));
      await h.file("b.jsonl.eval.json", sidecar("fnv1a64:bbbb"));
      const refused = await runMain(["eval-diff", a, b]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("are evaluations of different question sets");
      expect((await runMain(["eval-diff", a])).code).toBe(2);
      expect((await runMain(["--help"])).stdout).toMatch(
        /^ {2}eval-diff +compare two evaluations/m,
      );
      expect((await runMain(["eval-diff", "--help"])).stdout).toContain(
        "conductor-studio eval-diff A.jsonl B.jsonl",
      );
    },
  );
});

function sidecar(hash: string) {
  return {
    format: "conductor-studio-eval",
    version: 1,
    id: "e",
    name: "n",
    createdAt: 0,
    dataset: { name: "d", hash, size: 8 },
    strategies: [{ kind: "single", worker: "w" }],
    repeats: 1,
    seed: 0,
    scorer: { id: "exact", options: {}, version: 2 },
    pool: [],
    conductor: null,
    concurrency: 1,
    maxCost: null,
  };
}
