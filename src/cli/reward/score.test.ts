// The reward of one completion, in process against scripted backends: the paper's scale, parse
// failures, workers outside the pool, failed calls (null, never 0), the pool order and concurrency.
import { describe, expect, it } from "vitest";
import { OriginLimiter } from "../../engine/eval/limiter.ts";
import { createScorer } from "../../engine/eval/scorers/registry.ts";
import type { ChatRequest } from "../../engine/llm/types.ts";
import { LlmError } from "../../engine/llm/types.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeBackend, FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import type { Pool, Worker } from "../../engine/schema/worker.ts";
import { WorkerSchema } from "../../engine/schema/worker.ts";
import type { RewardEngine } from "./score.ts";
import { PAPER_REWARD, formatBonusReward } from "../../engine/eval/training/reward.ts";
import { rewardItem } from "./score.ts";
import { RewardItemSchema } from "./request.ts";

const pool: Pool = ["Solver", "Wrong", "Broken"].map((name, i) =>
  WorkerSchema.parse({
    id: `w${i}`,
    name,
    kind: "openai",
    baseURL: "http://x/v1",
    model: name.toLowerCase(),
    price: { input: 1, output: 1 },
  }),
);

function engineWith(replies: Record<string, (r: ChatRequest) => FakeReply>) {
  const backends = new Map<string, FakeBackend>(
    pool.map((w) => [
      w.id,
      createFakeBackend((r) => replies[w.name]?.(r) ?? { text: "Answer: 0" }),
    ]),
  );
  const engine: RewardEngine = {
    pool,
    conductor: {
      kind: "openai",
      baseURL: "http://x/v1",
      model: "conductor",
      temperature: 0.2,
      maxTokens: 1024,
    },
    conductorBackend: createFakeBackend([
      { error: new LlmError("server", "the Conductor must not be called") },
    ]),
    backendFor: (w: Worker) => backends.get(w.id)!,
    maxSteps: 5,
    retry: { maxAttempts: 2, baseDelayMs: 0, maxDelayMs: 0 },
    namedWorkers: false,
    scorer: (id) => {
      const made = createScorer({ id, options: {} });
      return made.ok ? made.scorer : made.message;
    },
    defaultScorer: "math",
  };
  return { engine, backends };
}

const standard = {
  Solver: () => ({ text: "2 + 2 = 4.\nAnswer: 4" }),
  Wrong: () => ({ text: "Answer: 5" }),
  Broken: () => ({ error: new LlmError("auth", "401") }),
};

const plan = (ids: number[], access = "[]") => `I will ask the models.
model_id = [${ids.join(", ")}]
subtasks = [${ids.map((i) => `"Solve it (step for ${i})."`).join(", ")}]
access_list = [${ids.map(() => access).join(", ")}]`;

const item = (completion: string, extra: Record<string, unknown> = {}) =>
  RewardItemSchema.parse({
    id: "q1",
    question: "What is 2+2?",
    completion,
    reference: "4",
    ...extra,
  });
const signal = () => new AbortController().signal;

describe("the reward of a completion", () => {
  it("is 1 for a plan that parses and answers right, 0.5 for one that answers wrong", async () => {
    const { engine, backends } = engineWith(standard);
    const right = await rewardItem(engine, item(plan([0])), PAPER_REWARD, signal());
    expect(right).toMatchObject({
      id: "q1",
      reward: 1,
      correct: true,
      format_ok: true,
      error: null,
      calls: 1,
      extracted: "4",
    });
    expect(right.answer).toContain("Answer: 4");
    expect(right.cost).toBeGreaterThan(0);
    expect(right.run_id).toMatch(/^run-/);
    const wrong = await rewardItem(engine, item(plan([0, 1], '["all"]')), PAPER_REWARD, signal());
    expect(wrong).toMatchObject({
      reward: 0.5,
      correct: false,
      format_ok: true,
      error: null,
      calls: 2,
    });
    // The later step saw the earlier one's answer, as in the studio.
    const seen = backends
      .get("w1")!
      .calls.at(-1)!
      .messages.map((m) => m.content)
      .join("\n");
    expect(seen).toContain("Answer: 4");
  });

  it("follows eval's format_bonus rule when asked: 0 unparseable, B wrong, 1 + B right", async () => {
    const { engine } = engineWith(standard);
    const b = formatBonusReward(0.2);
    expect(await rewardItem(engine, item(plan([1])), b, signal())).toMatchObject({
      reward: 0.2,
      correct: false,
    });
    expect(await rewardItem(engine, item(plan([0])), b, signal())).toMatchObject({
      reward: 1.2,
      correct: true,
    });
    expect(await rewardItem(engine, item("Answer: 4"), b, signal())).toMatchObject({
      reward: 0,
      format_ok: false,
    });
  });

  it("is 0, with the parser's code, for a plan that does not parse or names a worker outside the pool", async () => {
    const { engine, backends } = engineWith(standard);
    const prose = await rewardItem(
      engine,
      item("I think the answer is 4."),
      PAPER_REWARD,
      signal(),
    );
    expect(prose).toMatchObject({
      reward: 0,
      correct: false,
      format_ok: false,
      error: null,
      calls: 0,
      run_id: null,
    });
    expect(prose.parse_error?.code).toBe("missing_list");
    const outside = await rewardItem(engine, item(plan([0, 3])), PAPER_REWARD, signal());
    expect(outside).toMatchObject({ reward: 0, format_ok: false });
    expect(outside.parse_error?.code).toBe("bad_worker");
    const tooMany = await rewardItem(
      engine,
      item(plan([0, 0, 0, 0, 0, 0])),
      PAPER_REWARD,
      signal(),
    );
    expect(tooMany.parse_error?.code).toBe("too_many_steps");
    expect([...backends.values()].every((b) => b.calls.length === 0)).toBe(true);
  });

  it("reads model ids against the item's pool as the prompt listed it", async () => {
    const { engine, backends } = engineWith(standard);
    // The prompt showed [Wrong, Solver]: model 1 is the Solver, and model 2 is outside the pool.
    const r = await rewardItem(
      engine,
      item(plan([1]), { pool: ["Wrong", "Solver"] }),
      PAPER_REWARD,
      signal(),
    );
    expect(r).toMatchObject({ reward: 1, calls: 1 });
    expect(backends.get("w0")!.calls).toHaveLength(1);
    const outside = await rewardItem(
      engine,
      item(plan([2]), { pool: ["Wrong", "Solver"] }),
      PAPER_REWARD,
      signal(),
    );
    expect(outside).toMatchObject({ reward: 0, format_ok: false });
    const unknown = await rewardItem(
      engine,
      item(plan([0]), { pool: ["Solver", "Oracle"] }),
      PAPER_REWARD,
      signal(),
    );
    expect(unknown).toMatchObject({ reward: null, error: { code: "unknown_worker" } });
    expect(unknown.error?.message).toContain('"Oracle"');
  });

  it("is null with an error, never 0, when a worker call fails", async () => {
    const { engine } = engineWith(standard);
    const r = await rewardItem(engine, item(plan([0, 2], '["all"]')), PAPER_REWARD, signal());
    expect(r).toMatchObject({
      reward: null,
      correct: null,
      format_ok: true,
      error: { code: "worker_failed" },
    });
    expect(r.error?.message).toMatch(/Step 2 \(Broken\) failed \(auth\)/);
    // A 5xx is retried first (the engine's policy), then the item fails the same way.
    const flaky = engineWith({
      ...standard,
      Solver: () => ({ error: new LlmError("server", "503") }),
    });
    const f = await rewardItem(flaky.engine, item(plan([0])), PAPER_REWARD, signal());
    expect(f).toMatchObject({ reward: null, error: { code: "worker_failed" } });
    expect(flaky.backends.get("w0")!.calls).toHaveLength(2);
  });

  it("is null with code budget when the config's maxCalls stops the run", async () => {
    const { engine } = engineWith(standard);
    const capped = { ...engine, maxCalls: 1 };
    const r = await rewardItem(capped, item(plan([0, 1])), PAPER_REWARD, signal());
    expect(r).toMatchObject({ reward: null, format_ok: true, error: { code: "budget" } });
  });

  it("is null when the answer cannot be scored, and converts a choice's text to its letter", async () => {
    const { engine } = engineWith({ ...standard, Solver: () => ({ text: "Answer: B" }) });
    const none = await rewardItem(
      engine,
      item(plan([0]), { reference: null }),
      PAPER_REWARD,
      signal(),
    );
    expect(none).toMatchObject({ reward: null, error: { code: "unscored" } });
    const unknownScorer = await rewardItem(
      engine,
      item(plan([0]), { scorer: "astrology" }),
      PAPER_REWARD,
      signal(),
    );
    expect(unknownScorer).toMatchObject({ reward: null, error: { code: "unscored" } });
    const mc = item(plan([0]), {
      question: "Which is a prime?\nA) 4\nB) 7\nC) 9\n\nAnswer with a letter.",
      reference: "7",
      choices: ["4", "7", "9"],
      scorer: "mc",
    });
    expect(await rewardItem(engine, mc, PAPER_REWARD, signal())).toMatchObject({
      reward: 1,
      correct: true,
    });
  });

  it("runs a batch's items at once, within the origin's limit", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    let now = 0;
    let most = 0;
    const { engine } = engineWith({
      ...standard,
      Solver: () => {
        most = Math.max(most, ++now);
        return { text: "Answer: 4", gate: gate.then(() => void now--) };
      },
    });
    const limiter = new OriginLimiter(3);
    const gated: RewardEngine = {
      ...engine,
      backendFor: (w) => limiter.wrap(engine.backendFor(w), "http://x"),
    };
    const batch = Promise.all(
      Array.from({ length: 8 }, (_v, i) =>
        rewardItem(gated, item(plan([0]), { id: `q${i}` }), PAPER_REWARD, signal()),
      ),
    );
    while (limiter.gate("http://x").inFlight < 3) await new Promise((r) => setImmediate(r));
    expect(most).toBe(3);
    open();
    const results = await batch;
    expect(results.map((r) => r.reward)).toEqual(Array(8).fill(1));
    expect(most).toBe(3);
  });
});
