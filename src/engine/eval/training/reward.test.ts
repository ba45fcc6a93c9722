import { describe, expect, it } from "vitest";
import { emptyRecord } from "../../run/record.ts";
import type { RunRecord } from "../../schema/record.ts";
import type { EvalResult } from "../schema.ts";
import { line } from "../../../test-support/engine/eval/eval-results.ts";
import {
  PAPER_REWARD,
  describeReward,
  formatBonusReward,
  parseRewardOption,
  rewardOf,
} from "./reward.ts";
import { ConductorSampleSchema, conductorSample } from "./sample.ts";

describe("training rewards", () => {
  it("follows the paper by default: 0 unparseable, 0.5 parsed and wrong, 1 parsed and right", () => {
    expect(rewardOf(false, false)).toBe(0);
    expect(rewardOf(false, true)).toBe(0); // a right answer from no plan earns nothing
    expect(rewardOf(true, false)).toBe(0.5);
    expect(rewardOf(true, true)).toBe(1);
  });

  it("has the format_bonus variant: correctness plus a bonus for a parsed plan", () => {
    const s = { scheme: "format_bonus" as const, bonus: 0.2 };
    expect([rewardOf(false, false, s), rewardOf(true, false, s), rewardOf(true, true, s)]).toEqual([
      0, 0.2, 1.2,
    ]);
    expect(rewardOf(false, true, s)).toBe(0);
  });

  it("reads --reward", () => {
    expect(parseRewardOption("paper")).toEqual(PAPER_REWARD);
    expect(parseRewardOption("format_bonus")).toEqual({ scheme: "format_bonus", bonus: 0.1 });
    expect(parseRewardOption("format_bonus:0.25")).toEqual({ scheme: "format_bonus", bonus: 0.25 });
    expect(parseRewardOption("format_bonus:3")).toMatch(/0 <= B <= 1/);
    expect(parseRewardOption("binary")).toMatch(/--reward must be/);
    expect(parseRewardOption("format_bonus:0.1.2")).toMatch(/0 <= B <= 1, got "0.1.2"/);
    // The reward service's --format-bonus B is the same scheme as eval's --reward format_bonus:B.
    expect(parseRewardOption("format_bonus:0.3")).toEqual(formatBonusReward(0.3));
  });

  it("says a scheme in words with its three values", () => {
    expect(describeReward(PAPER_REWARD)).toBe("paper (0 / 0.5 / 1)");
    expect(describeReward(formatBonusReward(0.25))).toBe("format_bonus 0.25 (0 / 0.25 / 1.25)");
  });
});

const PLANNED: RunRecord = {
  ...emptyRecord("r1"),
  question: "What is 3+4?",
  rounds: [
    {
      index: 0,
      plan: {
        messages: [{ role: "user", content: "plan" }],
        raw: "model_id = [0]",
        startedAt: 0,
        finishedAt: 1,
        usage: null,
        cost: null,
        error: null,
      },
      lists: { model_id: [0], subtasks: ["Solve"], access_list: [[]], workerIds: ["a"] },
      steps: [],
      answer: "Answer: 7",
      accepted: false,
    },
  ],
};

/** A right answer of the Conductor strategy to q1; `over` changes what a test is about. */
const result = (over: Partial<EvalResult>): EvalResult => line("conductor", "q1", true, "r", over);

describe("training samples", () => {
  it("leaves out errored and unscored samples instead of counting them as wrong", () => {
    expect(conductorSample(result({}), PLANNED)?.reward).toEqual({
      total: 1,
      correct: 1,
      format: 1,
      scheme: PAPER_REWARD,
    });
    expect(conductorSample(result({ correct: false, score: 0 }), PLANNED)?.reward.total).toBe(0.5);
    expect(conductorSample(result({ correct: null, score: 0 }), PLANNED)).toBeNull();
    const error = { stage: "worker" as const, code: "auth", message: "401" };
    expect(conductorSample(result({ correct: null, error }), PLANNED)).toBeNull();
    expect(conductorSample(result({ strategy: "moa" }), PLANNED)).toBeNull();
  });

  it("rewards with eval's --reward format_bonus:B: B wrong, 1 + B right, 0 without a plan", () => {
    const b = formatBonusReward(0.2);
    expect(conductorSample(result({}), PLANNED, b)?.reward).toEqual({
      total: 1.2,
      correct: 1,
      format: 1,
      scheme: b,
    });
    const wrong = conductorSample(result({ correct: false, score: 0 }), PLANNED, b);
    expect(wrong?.reward.total).toBe(0.2);
    const round = { ...PLANNED.rounds[0]!, lists: null };
    const unparsed = conductorSample(result({}), { ...PLANNED, rounds: [round] }, b);
    expect(unparsed?.reward).toMatchObject({ total: 0, correct: 0, format: 0 });
  });

  it("migrates a version 1 sample to the paper's reward and refuses an unscored one", () => {
    const v2 = conductorSample(result({ correct: false, score: 0 }), PLANNED)!;
    const v1 = { ...v2, version: 1, reward: { total: 0, correct: 0, format: 1 }, scored: true };
    const read = ConductorSampleSchema.parse(v1);
    expect(read.version).toBe(2);
    expect(read.reward).toEqual({ total: 0.5, correct: 0, format: 1, scheme: PAPER_REWARD });
    const unparsed = { ...v1, reward: { total: -1, correct: 0, format: 0 } };
    expect(ConductorSampleSchema.parse(unparsed).reward.total).toBe(0);
    expect(ConductorSampleSchema.safeParse({ ...v1, scored: false }).success).toBe(false);
  });
});
