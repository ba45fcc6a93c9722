// The reward runtime as the service builds it, against the local test server: code answers go
// through the "code" grader and its sandbox (the scripted summing sandbox here; the real Pyodide runs in
// src/engine/eval/code/sandbox.node.test.ts), asked for once, disposed with the runtime.
import { describe } from "vitest";
import { cliIt, threeWorkerConfig } from "../../test-support/cli/cli-harness.ts";
import { resolveConfig } from "../config.ts";
import { createRewardRuntime } from "./engine.ts";
import { RewardRequestSchema } from "./request.ts";
import { PAPER_REWARD } from "../../engine/eval/training/reward.ts";
import { summingSandbox } from "../../test-support/engine/eval/code/summing-sandbox.ts";

const TESTS = {
  style: "stdio",
  cases: [
    { input: "1 2\n", output: "3\n" },
    { input: "40 2\n", output: "42\n" },
  ],
};
const plan = (id: number) =>
  `model_id = [${id}]\nsubtasks = ["Write the program."]\naccess_list = [[]]`;

describe("the reward runtime", () => {
  cliIt(
    "scores code answers in the sandbox, asked for once and disposed with the runtime",
    async ({ expect, h }) => {
      h.server.setDefault("solver-a", {
        content: "```python\nimport sys\nprint(sum(map(int, sys.stdin.read().split())))\n```",
      });
      h.server.setDefault("solver-b", { content: "```python\nprint('no idea')\n```" });
      const resolved = resolveConfig(JSON.stringify(threeWorkerConfig(h.server)), {});
      if (!resolved.ok) throw new Error(resolved.message);
      const sandbox = summingSandbox(1);
      let asked = 0;
      const runtime = createRewardRuntime(resolved, {
        concurrency: 4,
        scorer: "math",
        codeSandbox: () => (asked++, Promise.resolve(sandbox)),
      });
      const request = RewardRequestSchema.parse({
        items: [0, 1, 0].map((id, i) => ({
          id: `c${i}`,
          question: "Read two numbers and print their sum.",
          completion: plan(id),
          reference: null,
          scorer: "code",
          tests: TESTS,
        })),
      });
      const rewards = await runtime.scoreBatch(request, PAPER_REWARD, new AbortController().signal);
      expect(rewards.map((r) => [r.id, r.reward, r.correct])).toEqual([
        ["c0", 1, true],
        ["c1", 0.5, false],
        ["c2", 1, true],
      ]);
      expect(asked).toBe(1);
      expect(runtime.totals).toMatchObject({
        batches: 1,
        items: 3,
        rewarded: 3,
        errors: 0,
        workerCalls: 3,
      });
      expect(runtime.limiter.limits()).toEqual({ [new URL(h.server.baseURL).origin]: 4 });
      await runtime.dispose();
      expect(sandbox.disposed).toBe(1);
    },
  );

  cliIt(
    "sends a batch's first worker call before its later items are scored, and answers in order",
    async ({ expect, h }) => {
      const held = h.server.gate("first");
      h.server.setDefault("solver-a", { content: "Answer: 42", gate: "first" });
      const resolved = resolveConfig(JSON.stringify(threeWorkerConfig(h.server)), {});
      if (!resolved.ok) throw new Error(resolved.message);
      const runtime = createRewardRuntime(resolved, { concurrency: 4, scorer: "math" });
      const n = 200;
      // The first item calls a worker; every later one is a plan that does not parse (no call).
      const request = RewardRequestSchema.parse({
        items: Array.from({ length: n }, (_v, i) => ({
          id: `i${i}`,
          question: "What is 6 x 7?",
          completion: i === 0 ? plan(0) : "no plan here",
          reference: "42",
        })),
      });
      const batch = runtime.scoreBatch(request, PAPER_REWARD, new AbortController().signal);
      await held.reached(1);
      // Items that started at once would all be scored before any call reached the server.
      expect(runtime.totals.items).toBeLessThan(n - 1);
      held.release();
      const rewards = await batch;
      expect(rewards.map((r) => r.id)).toEqual(request.items.map((item) => item.id));
      expect(rewards[0]).toMatchObject({ reward: 1, correct: true });
      expect(rewards.slice(1).every((r) => r.reward === 0 && r.parse_error !== null)).toBe(true);
      expect(h.server.requests).toHaveLength(1);
    },
  );

  cliIt(
    "warms a local default grader before serving, but never starts a sandbox or calls a worker for it",
    async ({ expect, h }) => {
      const resolved = resolveConfig(JSON.stringify(threeWorkerConfig(h.server)), {});
      if (!resolved.ok) throw new Error(resolved.message);
      let asked = 0;
      for (const scorer of ["math", "code", "no-such-grader"]) {
        const runtime = createRewardRuntime(resolved, {
          concurrency: 4,
          scorer,
          codeSandbox: () => (asked++, Promise.resolve(summingSandbox(1))),
        });
        await runtime.warm();
        await runtime.dispose();
      }
      expect(asked).toBe(0);
      expect(h.server.requests).toEqual([]);
    },
  );
});
