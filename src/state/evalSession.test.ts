// One evaluation, defined once, run through both adapters of the evaluation core
// (src/engine/eval/session.ts): the studio's controller and the CLI's `eval`. Both must store the
// same scorer (the judge by name) and reach the same verdicts, answers, tokens and costs.
import "fake-indexeddb/auto";
import { readFile } from "node:fs/promises";
import { describe } from "vitest";
import type { TestServer } from "../../e2e/server/server.ts";
import type { EvalResult } from "../engine/eval/schema.ts";
import { EvaluationSchema } from "../engine/eval/schema.ts";
import {
  CLI_TIMEOUT_MS,
  cliIt,
  evalArgs,
  readEvalResults,
  runMain,
} from "../test-support/cli/cli-harness.ts";
import {
  judgeByReference,
  plusOneItems,
  scriptPlusOne,
  writeEvalFiles,
} from "../test-support/cli/eval-setups.ts";
import { loadQuestionText, startEvaluation } from "./eval/evalController.ts";
import { useStudio } from "./slices/store.ts";
import { resetEvaluate, serverWorker } from "../test-support/state/studio-state.ts";

/** The one definition: its questions, strategies, scorer and judge. */
const DEFINITION = {
  items: plusOneItems([3, 8, 20, 41]),
  strategies: ["single:Solver A", "single:Solver B"],
  scorer: "judge",
  judge: "Checker",
};
const JSONL = DEFINITION.items.map((i) => JSON.stringify(i)).join("\n");

/** Solver A answers right, Solver B right only on odd numbers; the Checker compares with the reference. */
function script(server: TestServer) {
  scriptPlusOne(
    server,
    {
      "solver-a": (n) => `Answer: ${n + 1}`,
      "solver-b": (n) => `Answer: ${n % 2 ? n + 1 : 0}`,
      checker: (_n, body) => judgeByReference(body),
    },
    { prompt_tokens: 1000, completion_tokens: 500 },
  );
}

/** What both adapters must agree on, per result (not its run id or latency). */
const comparable = (rows: readonly EvalResult[]) =>
  rows
    .map((r) => ({
      item: r.item,
      strategy: r.strategy,
      repeat: r.repeat,
      correct: r.correct,
      score: r.score,
      answer: r.answer,
      expected: r.expected,
      tokens: r.tokens,
      cost: r.cost,
    }))
    .sort((a, b) => `${a.item} ${a.strategy}`.localeCompare(`${b.item} ${b.strategy}`));

describe("one evaluation through the studio and the CLI", { timeout: CLI_TIMEOUT_MS * 2 }, () => {
  cliIt("stores the same scorer and reaches the same results", async ({ expect, h }) => {
    script(h.server);

    // The studio: its pool names the config's workers, its form the definition.
    resetEvaluate("eval-session");
    const price = (input: number, output: number) => ({ price: { input, output } });
    useStudio
      .getState()
      .setPool([
        serverWorker(h.server, "solver-a", { name: "Solver A", ...price(2, 10) }),
        serverWorker(h.server, "solver-b", { name: "Solver B", ...price(0.5, 1.5) }),
        serverWorker(h.server, "checker", { name: "Checker", ...price(3, 15) }),
      ]);
    loadQuestionText(JSONL, "questions.jsonl");
    useStudio.getState().patchEvalSetup({
      strategies: DEFINITION.strategies,
      scorer: DEFINITION.scorer,
      judge: DEFINITION.judge,
      cache: false,
    });
    await startEvaluation();
    const studio = useStudio.getState();
    expect(studio.evalPhase).toBe("finished");

    // The CLI: the same workers from a config file, the definition as options.
    const files = await writeEvalFiles(h, JSONL);
    const cli = await runMain(
      evalArgs(
        files,
        "--strategies",
        DEFINITION.strategies.join(","),
        "--scorer",
        DEFINITION.scorer,
        "--judge",
        DEFINITION.judge,
      ),
    );
    expect(cli.code).toBe(0);
    const stored = EvaluationSchema.parse(
      JSON.parse(await readFile(`${files.out}.eval.json`, "utf8")),
    );

    // The judge is stored by name on both sides, at the same version.
    const { version, ...scorer } = studio.evaluation!.scorer;
    expect(scorer).toEqual({ id: "judge", options: { judge: "Checker" } });
    expect(version).toBeGreaterThan(0);
    expect(stored.scorer).toEqual(studio.evaluation!.scorer);
    expect(stored.dataset.hash).toBe(studio.evaluation!.dataset.hash);
    expect(stored.strategies).toEqual(studio.evaluation!.strategies);

    const fromCli = comparable(await readEvalResults(files.out));
    expect(fromCli).toHaveLength(8);
    expect(comparable(studio.evalResults)).toEqual(fromCli);
    // The judge's calls count in each item's tokens: the solver's 1500 and the judge's 1500.
    expect(fromCli.map((r) => r.tokens)).toEqual(Array(8).fill(3000));
    expect(fromCli.filter((r) => r.strategy === "single:Solver B").map((r) => r.correct)).toEqual([
      true,
      false,
      false,
      true,
    ]);
  });
});
