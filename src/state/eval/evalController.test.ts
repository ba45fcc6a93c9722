import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import type { ChatBody } from "../../../e2e/server/server.ts";
import { SAMPLE_SETS } from "../../engine/eval/dataset/samples.ts";
import {
  findResumable,
  loadQuestionText,
  loadSample,
  mappedItems,
  startEvaluation,
  strategyChoices,
} from "./evalController.ts";
import { useStudio } from "../slices/store.ts";
import {
  resetEvaluate,
  serverForFile,
  serverWorker,
} from "../../test-support/state/studio-state.ts";

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
  it("closes the matrix cell left open when an evaluation starts and when a stored one is shown", async () => {
    server().setDefault("right", (b) => `Answer: ${expectedOf(b)}`);
    loadSample(FACTS);
    useStudio.getState().patchEvalSetup({ strategies: ["single:right"] });
    const cell = { item: FACTS.items[0]!.id, strategy: "single:right" };
    useStudio.getState().patchEval({ evalOpenItem: cell });
    await startEvaluation();
    expect(useStudio.getState().evalPhase).toBe("finished");
    expect(useStudio.getState().evalOpenItem).toBeNull();
    useStudio.getState().patchEval({ evalOpenItem: cell });
    await findResumable();
    expect(useStudio.getState().evalResults).toHaveLength(10);
    expect(useStudio.getState().evalOpenItem).toBeNull();
  });

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
    useStudio.getState().patchEvalSetup({ strategies: ["single:right", "single:wrong"] });
    await startEvaluation();
    const s = useStudio.getState();
    expect(s.evalPhase).toBe("finished");
    expect(s.evalResults).toHaveLength(20);
    const acc = (name: string) =>
      s.evalResults.filter((r) => r.strategy === name && r.correct).length;
    expect([acc("single:right"), acc("single:wrong")]).toEqual([10, 0]);
    // Stored: a fresh look finds it finished, with nothing to resume.
    useStudio.setState({ evalResults: [], evaluation: null });
    await findResumable();
    expect(useStudio.getState().evalResults).toHaveLength(20);
    expect(useStudio.getState().evalResumable).toBeNull();
  });

  it("refuses bad rows until the user chooses to skip them, and asks for a strategy", async () => {
    loadQuestionText('{"question":"What is 1+1?","answer":"2"}\n{"answer":"3"}\n', "q.jsonl");
    useStudio.getState().patchEvalSetup({ strategies: ["single:right"] });
    await startEvaluation();
    expect(useStudio.getState().evalMessage).toBe(
      '1 bad row(s): fix them or tick "skip bad rows".',
    );
    useStudio.getState().patchEvalSetup({ skipBad: true, strategies: [] });
    await startEvaluation();
    expect(useStudio.getState().evalMessage).toBe("Choose at least one strategy.");
    useStudio.getState().patchEvalSetup({ strategies: ["workflow"] });
    await startEvaluation();
    expect(useStudio.getState().evalMessage).toBe(
      "The studio has no workflow to use as a template.",
    );
  });
});
