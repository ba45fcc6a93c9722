// Re-scoring the evaluation on screen in the studio: what it says while it scores, when it refuses,
// and which scorer options and grader profile the re-scored definition keeps.
import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import type { ChatBody } from "../../../e2e/server/server.ts";
import { SAMPLE_SETS } from "../../engine/eval/dataset/samples.ts";
import { containsScorer } from "../../engine/eval/scorers/text.ts";
import { loadSample, startEvaluation } from "./evalController.ts";
import { rescoreEvaluation } from "./evalRescore.ts";
import { useStudio } from "../slices/store.ts";
import {
  resetEvaluate,
  serverForFile,
  serverWorker,
} from "../../test-support/state/studio-state.ts";

const server = serverForFile();

const FACTS = SAMPLE_SETS.find((s) => s.id === "factual")!;
const expectedOf = (b: ChatBody) =>
  FACTS.items.find((i) => JSON.stringify(b.messages).includes(i.question))?.expected ?? "?";

const chats = (model: string) =>
  server().requests.filter(
    (r) => r.path === "/v1/chat/completions" && (r.body as { model?: string }).model === model,
  );

beforeEach(() => {
  server().reset();
  resetEvaluate("eval-rescore");
  useStudio
    .getState()
    .setPool([
      serverWorker(server(), "right", { maxTokens: 64 }),
      serverWorker(server(), "other", { maxTokens: 64 }),
    ]);
  server().setDefault("right", (b) => `Answer: ${expectedOf(b)}`);
});

/** Runs the factual sample with worker "right" under `setup` (its scorer, profile, judge…). */
async function evaluated(setup: { scorer: string; profile?: string; judge?: string }) {
  loadSample(FACTS);
  useStudio.getState().patchEvalSetup({ strategies: ["single:right"], ...setup });
  await startEvaluation();
  const s = useStudio.getState();
  expect(s.evalPhase).toBe("finished");
  return s.evaluation!;
}

describe("studio re-score", () => {
  it("says which scorer and version it re-scores with while it scores", async () => {
    await evaluated({ scorer: "exact" });
    const messages: string[] = [];
    const stop = useStudio.subscribe((s) => messages.push(s.evalMessage ?? ""));
    await rescoreEvaluation("contains");
    stop();
    const v = containsScorer().version;
    expect(messages).toContain(`Re-scoring with contains v${v}…`);
    expect(messages.at(-1)).toMatch(new RegExp(`^Re-scored with contains v${v}: `));
  });

  it("does nothing when no evaluation is shown, or while one runs or is paused", async () => {
    await rescoreEvaluation("contains");
    expect(useStudio.getState().evalMessage).toBeNull();
    const ev = await evaluated({ scorer: "exact" });
    for (const phase of ["running", "paused"] as const) {
      useStudio.setState({ evalPhase: phase, evalMessage: "as it was" });
      await rescoreEvaluation("contains");
      const s = useStudio.getState();
      expect([s.evaluation, s.evalMessage]).toEqual([ev, "as it was"]);
      expect(s.evalResults.every((r) => r.scoredBy?.id === "exact")).toBe(true);
    }
  });

  it("refuses a second re-score while one runs, and re-scores again once it is done", async () => {
    await evaluated({ scorer: "exact" });
    await Promise.all([rescoreEvaluation("contains"), rescoreEvaluation("math")]);
    expect(useStudio.getState().evaluation!.scorer.id).toBe("contains");
    await rescoreEvaluation("math");
    const s = useStudio.getState();
    expect(s.evaluation!.scorer.id).toBe("math");
    expect(s.evalResults.every((r) => r.scoredBy?.id === "math")).toBe(true);
  });

  it("says how many errored items had no answer to score", async () => {
    server().setDefault("other", { status: 401 });
    loadSample(FACTS);
    useStudio.getState().patchEvalSetup({ strategies: ["single:right", "single:other"] });
    await startEvaluation();
    await rescoreEvaluation("contains");
    const s = useStudio.getState();
    const n = FACTS.items.length;
    expect(s.evalMessage).toMatch(
      new RegExp(
        `^Re-scored with contains v\\d+: 0 verdict\\(s\\) changed; ${n} errored item\\(s\\) have no answer to score\\.$`,
      ),
    );
    expect(s.evalResults.filter((r) => r.error)).toHaveLength(n);
  });

  it("keeps the grader profile of the same scorer, and gives another scorer no profile", async () => {
    const ev = await evaluated({ scorer: "math", profile: "minerva" });
    expect(ev.scorer.profile).toBe("minerva");
    await rescoreEvaluation("math");
    let s = useStudio.getState();
    expect(s.evaluation!.scorer).toMatchObject({ id: "math", profile: "minerva" });
    expect(s.evalResults.every((r) => r.scoredBy?.profile === "minerva")).toBe(true);
    expect(s.evalMessage).toMatch(/^Re-scored with math v\d+: 0 verdict\(s\) changed\.$/);
    await rescoreEvaluation("exact");
    s = useStudio.getState();
    expect(s.evaluation!.scorer).not.toHaveProperty("profile");
    expect(s.evaluation!.scorer.options).toEqual({});
  });

  it("asks the judge chosen in the setup, and says when none is chosen", async () => {
    const ev = await evaluated({ scorer: "exact" });
    await rescoreEvaluation("judge");
    let s = useStudio.getState();
    expect(s.evalMessage).toBe("The LLM judge needs a judge worker.");
    expect(s.evaluation).toEqual(ev);
    useStudio.getState().patchEvalSetup({ judge: "right", rubric: " Be strict. " });
    server().setDefault("right", "VERDICT: CORRECT");
    server().requests.length = 0;
    await rescoreEvaluation("judge");
    s = useStudio.getState();
    expect(s.evaluation!.scorer).toMatchObject({
      id: "judge",
      options: { judge: "right", rubric: "Be strict." },
    });
    expect(chats("right")).toHaveLength(FACTS.items.length);
    expect(s.evalResults.every((r) => r.correct === true)).toBe(true);
    // Another scorer takes none of the judge's options, though a judge is chosen.
    await rescoreEvaluation("contains");
    expect(useStudio.getState().evaluation!.scorer.options).toEqual({});
  });

  it("re-scores with the same judge the evaluation named, not the one chosen since", async () => {
    await evaluated({ scorer: "exact" });
    useStudio.getState().patchEvalSetup({ judge: "right" });
    server().setDefault("right", "VERDICT: INCORRECT");
    await rescoreEvaluation("judge");
    useStudio.getState().patchEvalSetup({ judge: "other" });
    server().setDefault("other", "VERDICT: CORRECT");
    server().requests.length = 0;
    await rescoreEvaluation("judge");
    const s = useStudio.getState();
    expect(chats("right")).toHaveLength(FACTS.items.length);
    expect(chats("other")).toHaveLength(0);
    expect(s.evaluation!.scorer.options).toEqual({ judge: "right" });
    expect(s.evalResults.every((r) => r.correct === false)).toBe(true);
  });
});
