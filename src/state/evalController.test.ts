import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import type { ChatBody } from "../../e2e/server/server.ts";
import { SAMPLE_SETS } from "../engine/eval/dataset/samples.ts";
import { useEval } from "./eval.ts";
import {
  findResumable,
  loadQuestionText,
  loadSample,
  mappedItems,
  startEvaluation,
  strategyChoices,
} from "./evalController.ts";
import { useStudio } from "./store.ts";
import { resetEvaluate, serverForFile, serverWorker } from "./test-fixtures.ts";

const server = serverForFile();

const worker = (name: string) => serverWorker(server(), name, { maxTokens: 64 });

beforeEach(() => {
  server().reset();
  resetEvaluate("eval-controller");
  useStudio.getState().setPool([worker("right"), worker("wrong")]);
});

const FACTS = SAMPLE_SETS.find((s) => s.id === "factual")!;
/** The reference of the sample question a request carries. */
const expectedOf = (b: ChatBody) =>
  FACTS.items.find((i) => JSON.stringify(b.messages).includes(i.question))?.expected ?? "?";

describe("the Evaluate controller", () => {
  it("loads a sample, runs the chosen strategies through the store and reports exact accuracies", async () => {
    server().setDefault("right", (b) => `Answer: ${expectedOf(b)}`);
    server().setDefault("wrong", "Answer: I do not know");
    loadSample(FACTS);
    expect(mappedItems().items).toHaveLength(10);
    expect(strategyChoices()).toEqual([
      "conductor",
      "single:right",
      "single:wrong",
      "moa",
      "chain",
      "best-of-n",
      "workflow",
    ]);
    useEval.getState().patchSetup({ strategies: ["single:right", "single:wrong"] });
    await startEvaluation();
    const s = useEval.getState();
    expect(s.phase).toBe("finished");
    expect(s.results).toHaveLength(20);
    const acc = (name: string) => s.results.filter((r) => r.strategy === name && r.correct).length;
    expect([acc("single:right"), acc("single:wrong")]).toEqual([10, 0]);
    // Stored: a fresh look finds it finished, with nothing to resume.
    useEval.setState({ results: [], evaluation: null });
    await findResumable();
    expect(useEval.getState().results).toHaveLength(20);
    expect(useEval.getState().resumable).toBeNull();
  });

  it("refuses bad rows until the user chooses to skip them, and asks for a strategy", async () => {
    loadQuestionText('{"question":"What is 1+1?","answer":"2"}\n{"answer":"3"}\n', "q.jsonl");
    useEval.getState().patchSetup({ strategies: ["single:right"] });
    await startEvaluation();
    expect(useEval.getState().message).toBe('1 bad row(s): fix them or tick "skip bad rows".');
    useEval.getState().patchSetup({ skipBad: true, strategies: [] });
    await startEvaluation();
    expect(useEval.getState().message).toBe("Choose at least one strategy.");
    useEval.getState().patchSetup({ strategies: ["workflow"] });
    await startEvaluation();
    expect(useEval.getState().message).toBe("The studio has no workflow to use as a template.");
  });
});
