// Training prompts with randomised pools (paper section 4.4): per question, a random subset of the
// workers in a random order, the exact Conductor prompt for it, in TRL's and verl's row shapes,
// and what a training run on them would cost. Platform-neutral: no node:*.
import { buildConductorMessages } from "../../engine/conductor/prompt.ts";
import type { EvalItem } from "../../engine/eval/dataset/item-schema.ts";
import { itemSeed, seededRandom } from "../../engine/eval/dataset/shuffle.ts";
import { poseItem } from "../../engine/eval/pose.ts";
import { trainerPrompt } from "../../engine/eval/training/shapes.ts";
import { text, verlSchemaHead } from "../../engine/eval/training/verl.ts";
import {
  promptTokensOf,
  tokensCost,
  TYPICAL_OUTPUT_TOKENS,
} from "../../engine/pool/cost-estimate.ts";
import type { ChatMessage } from "../../engine/schema/usage.ts";
import type { Pool } from "../../engine/schema/worker.ts";

export interface PoolSize {
  min: number;
  max: number;
}

/** `--pool-size 3-7` or `5`: the bounds of each question's pool; the pool's size caps both. */
export function parsePoolSize(text: string, poolSize: number): PoolSize | string {
  const m = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!m) return `--pool-size must be N or MIN-MAX, got "${text}".`;
  const min = Number(m[1]);
  const max = Number(m[2] ?? m[1]);
  if (min < 1 || max < min) return `--pool-size ${text}: need 1 <= MIN <= MAX.`;
  if (min > poolSize) return `--pool-size ${text}: the config has only ${poolSize} worker(s).`;
  return { min, max: Math.min(max, poolSize) };
}

/** A random subset of `pool` of a size drawn from `size`, in a random order (seeded per question). */
export function samplePool(pool: Pool, size: PoolSize, seed: number): Pool {
  const random = seededRandom(seed);
  const k = size.min + Math.floor(random() * (size.max - size.min + 1));
  const order = [...pool];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.slice(0, k);
}

/** One training prompt: the row before it takes a trainer's shape. */
export interface PromptRow {
  id: string;
  question: string;
  reference: string | null;
  scorer: string;
  /** Worker names in the order the prompt lists them (`model_id` n is `pool[n]`). */
  pool: string[];
  prompt: ChatMessage[];
  /** Test cases for the code scorer, as JSON text (one column type for every row). */
  tests: string | null;
}

export interface PromptOptions {
  pool: Pool;
  size: PoolSize;
  seed: number;
  scorer: string;
  maxSteps: number;
  namedWorkers: boolean;
}

/** The rows of a question set: the question as posed (as `eval` poses it), its pool and prompt. */
export function promptRows(items: readonly EvalItem[], o: PromptOptions): PromptRow[] {
  return items.map((item) => {
    const posed = poseItem(item, o.seed, o.scorer);
    const pool = samplePool(o.pool, o.size, itemSeed(o.seed, `pool:${item.id}`));
    const messages = buildConductorMessages({
      question: posed.question,
      pool,
      maxSteps: o.maxSteps,
      namedWorkers: o.namedWorkers,
      continuesAssistant: true,
    });
    return {
      id: item.id,
      question: posed.question,
      reference: posed.expected ?? null,
      scorer: o.scorer,
      pool: pool.map((w) => w.name),
      prompt: trainerPrompt(messages),
      tests: item.tests === undefined || item.tests === null ? null : JSON.stringify(item.tests),
    };
  });
}

/** TRL's conversational prompt dataset: `prompt` as messages, the rest as columns for the reward. */
export function trlRow(r: PromptRow, dataSource: string) {
  return {
    prompt: r.prompt,
    id: r.id,
    question: r.question,
    ground_truth: r.reference,
    scorer: r.scorer,
    pool: r.pool,
    tests: r.tests,
    data_source: dataSource,
  };
}

export interface TrainingShape {
  questionsPerStep: number;
  rollouts: number;
  steps: number;
  /** Worker calls per sampled plan (the paper's run: 128k calls over 51,200 plans, 2.5 each). */
  callsPerPlan: number;
}

export const PAPER_SHAPE: TrainingShape = {
  questionsPerStep: 4,
  rollouts: 64,
  steps: 200,
  callsPerPlan: 2.5,
};

export interface TrainingEstimate {
  plansPerStep: number;
  callsPerStep: number;
  callsTotal: number;
  /** Dollars per worker call, averaged over the questions' pools; null when no worker is priced. */
  costPerCall: number | null;
  costPerStep: number | null;
  costTotal: number | null;
  /** Workers without a price (their calls count as free in the figures). */
  unpriced: string[];
}

/**
 * Expected worker calls and dollars, before the cache: each plan makes `callsPerPlan` calls to
 * workers drawn from its question's pool; a call reads the question, the worker preamble and on
 * average half the earlier steps' outputs, and writes a typical answer (TYPICAL_OUTPUT_TOKENS).
 */
export function estimateTraining(
  rows: readonly PromptRow[],
  pool: Pool,
  shape: TrainingShape,
): TrainingEstimate {
  const plansPerStep = shape.questionsPerStep * shape.rollouts;
  const callsPerStep = plansPerStep * shape.callsPerPlan;
  const seen = shape.callsPerPlan > 1 ? ((shape.callsPerPlan - 1) / 2) * TYPICAL_OUTPUT_TOKENS : 0;
  const unpriced = pool.filter((w) => !w.price).map((w) => w.name);
  let sum = 0;
  let n = 0;
  for (const row of rows) {
    const asked = promptTokensOf([{ role: "user", content: row.question }]) + 150 + seen;
    for (const name of row.pool) {
      const price = pool.find((w) => w.name === name)?.price;
      sum += price ? tokensCost(asked, TYPICAL_OUTPUT_TOKENS, price) : 0;
      n++;
    }
  }
  const priced = unpriced.length < pool.length && n > 0;
  const costPerCall = priced ? sum / n : null;
  return {
    plansPerStep,
    callsPerStep,
    callsTotal: callsPerStep * shape.steps,
    costPerCall,
    costPerStep: costPerCall === null ? null : costPerCall * callsPerStep,
    costTotal: costPerCall === null ? null : costPerCall * callsPerStep * shape.steps,
    unpriced,
  };
}

/**
 * verl's RL dataset (parquet, as verl's own example preprocessors write it): data_source, prompt
 * (a list of {content, role}), ability, reward_model {style, ground_truth}, and extra_info with
 * what the reward service needs: question, reference, scorer, pool, tests, plus index and id.
 */
export async function verlPromptParquet(
  rows: readonly PromptRow[],
  dataSource: string,
  ability = "reasoning",
): Promise<ArrayBuffer> {
  const { parquetWriteBuffer } = await import("hyparquet-writer");
  return parquetWriteBuffer({
    columnData: [
      { name: "data_source", data: rows.map(() => dataSource) },
      {
        name: "prompt",
        data: rows.map((r) => r.prompt.map((m) => ({ content: m.content, role: m.role }))),
      },
      { name: "ability", data: rows.map(() => ability) },
      {
        name: "reward_model",
        data: rows.map((r) => ({ ground_truth: r.reference ?? "", style: "rule" })),
      },
      {
        name: "extra_info",
        data: rows.map((r, index) => ({
          index: BigInt(index),
          split: "train",
          id: r.id,
          question: r.question,
          reference: r.reference,
          scorer: r.scorer,
          pool: r.pool,
          tests: r.tests,
        })),
      },
    ],
    schema: [
      ...verlSchemaHead(8),
      { name: "index", type: "INT64", repetition_type: "OPTIONAL" },
      text("split"),
      text("id"),
      text("question"),
      text("reference"),
      text("scorer"),
      { name: "pool", repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
      { name: "list", repetition_type: "REPEATED", num_children: 1 },
      text("element"),
      text("tests"),
    ],
  });
}
