import "fake-indexeddb/auto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TestServer } from "../../../e2e/server/server.ts";
import { startTestServer } from "../../../e2e/server/server.ts";
import { SAMPLE_SETS } from "../../engine/eval/dataset/samples.ts";
import { loadSample, startEvaluation } from "./evalController.ts";
import { setEvalStore } from "./evalStore.ts";
import { createDexieEvalStore } from "./evalStore.ts";
import { useStudio } from "../slices/store.ts";

// The Evaluate view's Conductor strategy costs its plans at the price set in Settings (issue 10).
const initialStudio = useStudio.getState();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const PLAN = 'One step.\nmodel_id = [0]\nsubtasks = ["Answer the question."]\naccess_list = [[]]';

beforeEach(() => {
  server.reset();
  useStudio.setState(initialStudio, true);
  const s = useStudio.getState();
  s.setPool([
    {
      id: "w0",
      name: "Solver",
      kind: "openai",
      baseURL: server.baseURL,
      model: "solver",
      temperature: 0.2,
      maxTokens: 64,
      prefill: false,
    },
  ]);
  s.setConductor({
    backend: "remote",
    baseURL: server.baseURL,
    model: "conductor-7b",
    price: { input: 1, output: 4 },
  });
  setEvalStore(createDexieEvalStore(`eval-conductor-price-${Math.random()}`));
});

describe("an evaluation's Conductor strategy", () => {
  it("keeps the Conductor's price and counts each plan at it", async () => {
    server.setDefault("conductor-7b", {
      content: PLAN,
      usage: { prompt_tokens: 900, completion_tokens: 150 },
    });
    // The worker has no price: each item's cost is its plan's alone, 900 * 1 + 150 * 4 per million.
    server.setDefault("solver", "Answer: Paris");
    const facts = SAMPLE_SETS.find((set) => set.id === "factual");
    if (!facts) throw new Error("no factual sample set");
    loadSample(facts);
    useStudio.getState().patchEvalSetup({ strategies: ["conductor"] });
    await startEvaluation();
    const e = useStudio.getState();
    expect(e.evalPhase).toBe("finished");
    expect(e.evaluation?.conductor?.price).toEqual({ input: 1, output: 4 });
    expect(e.evalResults).toHaveLength(10);
    for (const r of e.evalResults) expect(r.cost).toBeCloseTo(0.0015, 12);
  });
});
