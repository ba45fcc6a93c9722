import { parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../../test-support/engine/llm/fake-backend.ts";
import type { RunRecord } from "../../schema/record.ts";
import type { Worker } from "../../schema/worker.ts";
import { EvalRun } from "../runner.ts";
import type { EvalResult, Evaluation } from "../schema.ts";
import { mathScorer } from "../scorers/math.ts";
import { ConductorSampleSchema, conductorSample } from "./sample.ts";
import type { ConductorSample } from "./sample.ts";
import { grpoRows, preferenceRows, sftRows, trainerPrompt, verlRows } from "./shapes.ts";
import { verlParquet } from "./verl.ts";

const w = (name: string): Worker => ({
  id: name,
  name,
  kind: "openai",
  baseURL: "http://m.test/v1",
  model: name,
  temperature: 0.2,
  maxTokens: 64,
  prefill: false,
});
const PLAN =
  'Two tries.\nmodel_id = [0, 1]\nsubtasks = ["Solve it", "Check and answer"]\naccess_list = [[], ["all"]]';

async function samples(): Promise<{
  samples: ConductorSample[];
  results: EvalResult[];
  records: RunRecord[];
}> {
  const ev: Evaluation = {
    format: "conductor-studio-eval",
    version: 1,
    id: "e",
    name: "n",
    createdAt: 0,
    dataset: { name: "d", hash: "h", size: 2 },
    strategies: [{ kind: "conductor", rounds: 0 }],
    repeats: 3,
    seed: 0,
    scorer: { id: "math", options: {}, version: 1 },
    pool: [w("a"), w("b")],
    conductor: {
      kind: "openai",
      baseURL: "http://c.test/v1",
      model: "cond",
      temperature: 0.2,
      maxTokens: 256,
    },
    concurrency: 4,
    maxCost: null,
  };
  // Calls: plans alternate good, good, garbage; the checker answers 7 then 8 in turn.
  const conductor = createFakeBackend((_, n) => ({
    text: n % 3 === 2 ? "I cannot plan this." : PLAN,
  }));
  let checks = 0;
  const backendFor = (x: Worker) =>
    createFakeBackend(() => ({
      text: x.name === "a" ? "draft" : `Answer: ${checks++ % 2 ? 8 : 7}`,
    }));
  const results: EvalResult[] = [];
  const records: RunRecord[] = [];
  await new EvalRun({
    evaluation: ev,
    items: [
      { id: "q1", question: "What is 3+4?", expected: "7" },
      { id: "q2", question: "What is 10-3?", expected: "7" },
    ],
    scorer: mathScorer(),
    backendFor,
    conductorBackend: conductor,
    taskConcurrency: 1,
    onResult: (r, rec) => {
      results.push(r);
      records.push(rec);
    },
  }).run();
  const out = results.map((r, i) => conductorSample(r, records[i]!)).filter((s) => s !== null);
  return { samples: out, results, records };
}

describe("training data", () => {
  it("one schema-valid row per Conductor sample, with the prompt exactly as sent and the reward parts", async () => {
    const { samples: rows, results } = await samples();
    expect(rows).toHaveLength(6);
    for (const row of rows)
      expect(ConductorSampleSchema.safeParse(JSON.parse(JSON.stringify(row))).success).toBe(true);
    const bad = rows.filter((r) => r.parse_error !== null);
    expect(bad).toHaveLength(2);
    expect(
      bad.every((r) => r.reward.total === 0 && r.reward.format === 0 && r.lists === null),
    ).toBe(true);
    // The paper's reward: 0 unparseable, 0.5 parsed and wrong, 1 parsed and right.
    expect(rows.map((r) => [r.parse_error === null, r.extracted_answer, r.reward.total])).toEqual(
      rows.map((r) =>
        r.parse_error !== null
          ? [false, r.extracted_answer, 0]
          : [true, r.extracted_answer, r.extracted_answer === "7" ? 1 : 0.5],
      ),
    );
    expect(rows.some((r) => r.reward.total === 0.5)).toBe(true);
    expect(rows.some((r) => r.reward.total === 1)).toBe(true);
    expect(results.filter((r) => r.planFailed)).toHaveLength(2);
    const good = rows.find((r) => r.reward.correct === 1)!;
    expect(good.lists).toEqual({
      model_id: [0, 1],
      subtasks: ["Solve it", "Check and answer"],
      access_list: [[], "all"],
      workerIds: ["a", "b"],
    });
    expect(good.prompt.at(-1)!.role).toBe("assistant"); // the opening, exactly as sent
    expect(good.prompt.some((m) => m.content.includes("What is"))).toBe(true);
    expect(good.steps.map((s) => s.model_id)).toEqual([0, 1]);
    expect(good.steps[1]!.messages[0]!.content).toContain("<Agent 0 response>");
    expect(good.pool).toEqual([
      { id: 0, name: "a", model: "a" },
      { id: 1, name: "b", model: "b" },
    ]);
    expect(good.pool_hash).toMatch(/^fnv1a64:/);
    expect(good.extracted_answer).toBe("7");
  });

  it("shapes the samples for GRPO, SFT, preference pairs and verl parquet", async () => {
    const { samples: rows } = await samples();
    const grpo = grpoRows(rows);
    expect(grpo.map((r) => r.group_id)).toEqual(["q1", "q2"]);
    expect(grpo[0]!.prompt.at(-1)!.role).toBe("user");
    const sft = sftRows(rows);
    expect(sft.length).toBe(rows.filter((r) => r.reward.total === 1).length);
    expect(sft[0]!.completion).toEqual([{ role: "assistant", content: PLAN }]);
    const prefs = preferenceRows(rows);
    expect(prefs.length).toBeGreaterThan(0);
    expect(prefs.every((p) => p.chosen[0]!.content === PLAN)).toBe(true);
    const verl = verlRows(rows, "sample-math");
    const buf = await verlParquet(rows, "sample-math");
    const back = await parquetReadObjects({ file: buf });
    expect(back).toHaveLength(2);
    expect(back[0]).toMatchObject({
      data_source: "sample-math",
      ability: "reasoning",
      reward_model: { style: "rule", ground_truth: "7" },
      extra_info: { group_id: "q1", split: "train" },
    });
    expect(back[0]!.prompt).toEqual(verl[0]!.prompt);
  });

  it("folds a trailing opening into the last user message", () => {
    expect(
      trainerPrompt([
        { role: "user", content: "Q" },
        { role: "assistant", content: "Let me" },
      ]),
    ).toEqual([{ role: "user", content: "Q\n\nLet me" }]);
  });
});
