// The studio's evaluation against the local test server: errored items are apart and retried on
// resume; the stored definition carries the real scorer version; Re-score calls no model.
import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import type { ChatBody } from "../../../e2e/server/server.ts";
import { analyse } from "../../engine/eval/analysis.ts";
import { diffEvaluations } from "../../engine/eval/diff.ts";
import { SAMPLE_SETS } from "../../engine/eval/dataset/samples.ts";
import { latestResults } from "../../engine/eval/schema.ts";
import { containsScorer } from "../../engine/eval/scorers/text.ts";
import { findResumable, loadSample, resumeStored, startEvaluation } from "./evalController.ts";
import { chooseDiff, loadDiffChoices } from "./evalDiffController.ts";
import { evalStore } from "./evalStore.ts";
import { rescoreEvaluation } from "./evalRescore.ts";
import { useStudio } from "../slices/store.ts";
import {
  resetEvaluate,
  serverForFile,
  serverWorker,
} from "../../test-support/state/studio-state.ts";

const server = serverForFile();

const worker = (name: string) => serverWorker(server(), name, { maxTokens: 64 });

const FACTS = SAMPLE_SETS.find((s) => s.id === "factual")!;
const expectedOf = (b: ChatBody) =>
  FACTS.items.find((i) => JSON.stringify(b.messages).includes(i.question))?.expected ?? "?";

beforeEach(() => {
  server().reset();
  resetEvaluate("eval-studio");
  useStudio.getState().setPool([worker("right"), worker("down")]);
});

describe("studio evaluation: errors, versions, re-score", () => {
  it("keeps errored items apart, offers them again and runs only them on resume", async () => {
    server().setDefault("right", (b) => `Answer: ${expectedOf(b)}`);
    server().setDefault("down", { status: 401 });
    loadSample(FACTS);
    useStudio.getState().patchEvalSetup({ strategies: ["single:right", "single:down"] });
    await startEvaluation();
    let s = useStudio.getState();
    expect(s.evalPhase).toBe("finished");
    const down = s.evalResults.filter((r) => r.strategy === "single:down");
    expect(down).toHaveLength(10);
    expect(down.every((r) => r.correct === null && r.error?.code === "auth")).toBe(true);
    expect(s.evalProgress).toMatchObject({ done: 10, errors: 10, total: 20 });
    expect(s.evalResumable).toMatchObject({ done: 10, total: 20 });
    const row = analyse(s.evaluation!, s.evalResults).strategies[1]!;
    expect(row).toMatchObject({ accuracy: null, errors: 10, questions: 0 });
    // After a reload the same offer stands.
    useStudio.setState({ evalResults: [], evaluation: null, evalResumable: null });
    await findResumable();
    expect(useStudio.getState().evalResumable).toMatchObject({ done: 10, total: 20 });
    // Fixed: resuming sends only the errored items.
    server().setDefault("down", "Answer: I do not know");
    server().requests.length = 0;
    await resumeStored();
    s = useStudio.getState();
    const chats = server().requests.filter((r) => r.path === "/v1/chat/completions");
    expect(chats).toHaveLength(10);
    expect(s.evalResumable).toBeNull();
    const now = latestResults(s.evalResults).filter((r) => r.strategy === "single:down");
    expect(now.every((r) => r.correct === false && r.error === null)).toBe(true);
    const stored = await evalStore().listItems(s.evaluation!.id);
    expect(stored.filter((r) => r.error)).toHaveLength(0);
    expect(stored).toHaveLength(20);
  });

  it("stores the scorer's real version, and re-scores without calling a model", async () => {
    server().setDefault("right", (b) => `Answer: ${expectedOf(b)}`);
    server().setDefault("down", "Answer: I do not know");
    loadSample(FACTS);
    useStudio.getState().patchEvalSetup({ strategies: ["single:right"], scorer: "exact" });
    await startEvaluation();
    const ev = useStudio.getState().evaluation!;
    const [stored] = await evalStore().listEvaluations();
    expect(stored!.scorer).toMatchObject({ id: "exact", version: ev.scorer.version });
    expect(stored!.scorer.version).toBeGreaterThan(0);
    server().requests.length = 0;
    await rescoreEvaluation("contains");
    const s = useStudio.getState();
    expect(server().requests).toHaveLength(0);
    expect(s.evaluation!.scorer).toMatchObject({
      id: "contains",
      version: containsScorer().version,
    });
    expect(s.evalResults.every((r) => r.scoredBy?.id === "contains")).toBe(true);
    expect(s.evalMessage).toMatch(/^Re-scored with contains v\d+: \d+ verdict\(s\) changed\.$/);
    const again = await evalStore().listItems(ev.id);
    expect(again.every((r) => r.scoredBy?.id === "contains")).toBe(true);
    const [after] = await evalStore().listEvaluations();
    expect(after!.scorer.id).toBe("contains");
    expect(analyse(after!, again).scorers).toEqual([
      { id: "contains", version: containsScorer().version, results: 10, assumed: false },
    ]);
  });

  it("offers another stored evaluation of the same questions to compare with", async () => {
    server().setDefault("right", (b) => `Answer: ${expectedOf(b)}`);
    loadSample(FACTS);
    useStudio.getState().patchEvalSetup({ strategies: ["single:right"] });
    await startEvaluation();
    const first = useStudio.getState().evaluation!;
    // The second time the worker gets the first three questions wrong (asked again: no cache).
    useStudio.getState().patchEvalSetup({ cache: false });
    const wrongOn = new Set(FACTS.items.slice(0, 3).map((i) => i.question));
    server().setDefault("right", (b) =>
      [...wrongOn].some((q) => JSON.stringify(b.messages).includes(q))
        ? "Answer: no idea"
        : `Answer: ${expectedOf(b)}`,
    );
    await startEvaluation();
    const second = useStudio.getState().evaluation!;
    expect(second.id).not.toBe(first.id);
    await loadDiffChoices();
    expect(useStudio.getState().evalDiffChoices.map((c) => c.id)).toEqual([first.id]);
    await chooseDiff(first.id);
    const other = useStudio.getState().evalDiffOther!;
    const d = diffEvaluations(useStudio.getState().evalResults, other.results);
    expect(d.strategies[0]).toMatchObject({
      strategy: "single:right",
      accuracyA: 0.7,
      accuracyB: 1,
    });
    expect(d.flipped.map((f) => [f.item, f.flip])).toEqual(
      FACTS.items.slice(0, 3).map((i) => [i.id, "gained"]),
    );
    expect(d.flipped[0]!.runIdsB).toHaveLength(1);
    await chooseDiff(null);
    expect(useStudio.getState().evalDiffOther).toBeNull();
    // The first evaluation on screen: it is no diff's choice, so a diff against it goes.
    await chooseDiff(first.id);
    useStudio.setState({ evaluation: first });
    await loadDiffChoices();
    expect(useStudio.getState().evalDiffChoices.map((c) => c.id)).toEqual([second.id]);
    expect(useStudio.getState().evalDiffOther).toBeNull();
    // A diff against a choice still offered stays; no evaluation on screen, no diff at all.
    await chooseDiff(second.id);
    await loadDiffChoices();
    expect(useStudio.getState().evalDiffOther?.evaluation.id).toBe(second.id);
    useStudio.setState({ evaluation: null });
    await loadDiffChoices();
    expect(useStudio.getState().evalDiffChoices).toEqual([]);
    expect(useStudio.getState().evalDiffOther).toBeNull();
  });

  it("offers only evaluations of the same questions, and keeps the chosen one while it is offered", async () => {
    server().setDefault("right", "Answer: 4");
    const run = async (set: (typeof SAMPLE_SETS)[number]) => {
      loadSample(set);
      useStudio.getState().patchEvalSetup({ strategies: ["single:right"], cache: false });
      await startEvaluation();
      return useStudio.getState().evaluation!;
    };
    const first = await run(FACTS);
    const other = await run(SAMPLE_SETS.find((s) => s.id === "math")!);
    const second = await run(FACTS);
    const third = await run(FACTS);
    expect(other.dataset.hash).not.toBe(third.dataset.hash);
    await loadDiffChoices();
    expect(
      useStudio
        .getState()
        .evalDiffChoices.map((c) => c.id)
        .sort(),
    ).toEqual([first.id, second.id].sort());
    await chooseDiff(first.id);
    await loadDiffChoices();
    expect(useStudio.getState().evalDiffOther?.evaluation.id).toBe(first.id);
  });
});
