// What an item's result says its run measured: cache hits and their savings, a fallback answer,
// and the run's own latency (not the scoring after it).
import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import {
  collect,
  conductorConfig,
  evaluation,
  items,
  worker,
} from "../../test-support/engine/eval/eval-runner.ts";

const pool = [worker("a", { input: 1000, output: 1000 })];

/** A clock that moves one millisecond each time it is read. */
function ticking() {
  let t = 1_000;
  return () => ++t;
}

describe("an item's measured result", () => {
  it("counts the calls served from a cache and the money they saved", async () => {
    const backend = createFakeBackend((_req, n) => ({
      text: "Answer: 7",
      usage: {
        promptTokens: 10,
        completionTokens: 5,
        estimated: false,
        ...(n === 0 ? { cached: true, savedCost: 0.25 } : {}),
      },
    }));
    const { results } = await collect({
      evaluation: evaluation(pool, { strategies: [{ kind: "chain" }], concurrency: 1 }),
      items: items(1),
      backendFor: () => backend,
      now: ticking(),
    });
    expect(results[0]).toMatchObject({ calls: 3, cachedCalls: 1, savedCost: 0.25, tokens: 45 });
  });

  it("leaves both out when no call was cached", async () => {
    const backend = createFakeBackend([{ text: "Answer: 7" }]);
    const { results } = await collect({
      evaluation: evaluation(pool),
      items: items(1),
      backendFor: () => backend,
    });
    expect(results[0]).not.toHaveProperty("cachedCalls");
    expect(results[0]).not.toHaveProperty("savedCost");
    expect(results[0]).not.toHaveProperty("fallback");
  });

  it("marks an answer a fallback worker gave when the Conductor could not plan", async () => {
    const { results } = await collect({
      evaluation: evaluation(pool, {
        strategies: [{ kind: "conductor", rounds: 0 }],
        conductor: conductorConfig(),
      }),
      items: items(1),
      backendFor: () => createFakeBackend([{ text: "Answer: 7" }]),
      conductorBackend: createFakeBackend([{ text: "I cannot make lists today." }]),
      fallback: { workerId: "a" },
    });
    expect(results[0]).toMatchObject({ fallback: true, correct: true, planFailed: false });
  });

  it("takes its latency from the run, not from the scoring that follows it", async () => {
    const { results, records } = await collect({
      evaluation: evaluation(pool),
      items: items(1),
      backendFor: () => createFakeBackend([{ text: "Answer: 7" }]),
      now: ticking(),
    });
    const record = records[0]!;
    expect(record.finishedAt).not.toBeNull();
    expect(results[0]!.latencyMs).toBe(record.finishedAt! - record.startedAt!);
    // The result itself is stamped later, once scored.
    expect(results[0]!.finishedAt).toBeGreaterThan(record.finishedAt!);
  });
});
