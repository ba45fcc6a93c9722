// `conductor-studio eval --fallback worker:NAME`: a Conductor that cannot plan is asked once more,
// then the named worker answers alone; the results and the summary count the fallbacks.
import { describe } from "vitest";
import {
  CLI_TIMEOUT_MS,
  chatRequests,
  cliIt,
  evalArgs,
  readEvalResults,
  runCli,
  runMain,
} from "../test-support/cli/cli-harness.ts";
import type { Harness } from "../test-support/cli/cli-harness.ts";
import { writeEvalFiles } from "../test-support/cli/eval-setups.ts";

/** The pool's config (each call tried as by default) and one question, 3 + 4. */
const writeFiles = (h: Harness) =>
  writeEvalFiles(h, '{"id":"q1","question":"What is 3 + 4?","answer":"7"}\n', {
    datasetName: "q.jsonl",
    config: {},
  });

const TRUNCATED = 'model_id = [0, 1]\nsubtasks = ["Solve it.", "Check the';

describe("conductor-studio eval --fallback", { timeout: CLI_TIMEOUT_MS }, () => {
  cliIt(
    "answers with the named worker when the Conductor cannot plan, and counts it",
    async ({ expect, h }) => {
      h.server.setDefault("conductor-7b", TRUNCATED);
      h.server.setDefault("checker", "It is 7.\nAnswer: 7");
      const files = await writeFiles(h);
      const args = evalArgs(files, "--strategies", "conductor", "--fallback", "worker:Checker");
      const r = await runCli(args);
      expect(r.code, r.stderr).toBe(0);
      const [result] = await readEvalResults(files.out);
      expect(result).toMatchObject({ strategy: "conductor", correct: true, fallback: true });
      // Asked twice, then the Checker alone.
      expect(chatRequests(h.server, "conductor-7b")).toHaveLength(2);
      expect(chatRequests(h.server, "checker")).toHaveLength(1);
      const [head, row] = r.stdout.split("\n");
      const column = head!.split(/\s{2,}/).indexOf("fallback");
      expect(column).toBeGreaterThan(0);
      expect(row!.trim().split(/\s{2,}/)[column]).toBe("1");
    },
  );

  cliIt("refuses a worker the pool does not have", async ({ expect, h }) => {
    const files = await writeFiles(h);
    const r = await runMain(evalArgs(files, "--fallback", "worker:Nobody"));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--fallback worker:Nobody: no worker has that name");
  });
});
