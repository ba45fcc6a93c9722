import type { Failure } from "../errors.ts";
import { ErrorCode } from "../errors.ts";
import { z } from "zod";
import { DEFAULT_ROUNDS } from "../constants.ts";
import { LIMIT_FIELDS } from "../schema/settings.ts";
import type { Pool } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import { StepSchema } from "../schema/workflow.ts";

/**
 * A strategy is a named, reproducible recipe stored with the results. Workers are named by their
 * pool name, so a recipe survives a reordered pool.
 */
export const StrategySchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("conductor"),
    /** Extra refinement rounds (docs/protocol.md §1.6); 0 by default. */
    rounds: LIMIT_FIELDS.rounds.default(DEFAULT_ROUNDS),
    maxSteps: LIMIT_FIELDS.maxSteps.optional(),
  }),
  z.object({ kind: z.literal("single"), worker: z.string().min(1) }),
  /** Mixture-of-Agents style: every listed worker attempts, then the aggregator combines. */
  z.object({
    kind: z.literal("moa"),
    workers: z.array(z.string().min(1)).optional(),
    aggregator: z.string().min(1).optional(),
  }),
  /** Attempt, check, final: a chain of three steps, each seeing all before it. */
  z.object({ kind: z.literal("chain"), workers: z.array(z.string().min(1)).length(3).optional() }),
  /** N attempts by one worker, then a judge worker picks and restates the best. */
  z.object({
    kind: z.literal("best-of-n"),
    worker: z.string().min(1).optional(),
    judge: z.string().min(1).optional(),
    n: z.number().int().min(2).max(8).default(3),
  }),
  /** The user's graph as a template applied to every question. */
  z.object({ kind: z.literal("workflow"), steps: z.array(StepSchema).min(1) }),
]);
export type Strategy = z.infer<typeof StrategySchema>;

/** The strategy's column name: `conductor`, `single:<worker>`, `moa`, `chain`, `best-of-n`, `workflow`. */
export function strategyName(s: Strategy): string {
  return s.kind === "single" ? `single:${s.worker}` : s.kind;
}

/** Reads `--strategies conductor,single,moa`: `single` expands to every worker alone. */
export function parseStrategyList(
  text: string,
  pool: Pool,
): { ok: true; strategies: Strategy[] } | ({ ok: false } & Failure) {
  const out: Strategy[] = [];
  for (const raw of text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (raw === "conductor") out.push({ kind: "conductor", rounds: 0 });
    else if (raw === "single") for (const w of pool) out.push({ kind: "single", worker: w.name });
    else if (raw.startsWith("single:")) {
      const name = raw.slice("single:".length);
      if (!pool.some((w) => w.name === name))
        return {
          ok: false,
          code: ErrorCode.invalid_argument,
          message: `No worker named "${name}" in the pool.`,
        };
      out.push({ kind: "single", worker: name });
    } else if (raw === "moa") out.push({ kind: "moa" });
    else if (raw === "chain") out.push({ kind: "chain" });
    else if (raw === "best-of-n") out.push({ kind: "best-of-n", n: 3 });
    else
      return {
        ok: false,
        code: ErrorCode.invalid_argument,
        message: `Unknown strategy "${raw}" (conductor, single, single:<worker>, moa, chain, best-of-n).`,
      };
  }
  if (out.length === 0)
    return { ok: false, code: ErrorCode.invalid_argument, message: "No strategy given." };
  return { ok: true, strategies: out };
}

type Picked = { ok: true; id: string } | ({ ok: false } & Failure);

/** Why a strategy cannot run on a pool with no workers. */
export const EMPTY_POOL = "The pool is empty.";

/** The id of the worker named `name`, or (unnamed) of the worker at `fallback`, the last if fewer. */
function pickWorker(pool: Pool, name: string | undefined, fallback: number): Picked {
  const w =
    name === undefined
      ? pool[Math.min(fallback, pool.length - 1)]
      : pool.find((x) => x.name === name);
  if (w) return { ok: true, id: w.id };
  return {
    ok: false,
    code: ErrorCode.invalid_argument,
    message: name === undefined ? EMPTY_POOL : `No worker named "${name}" in the pool.`,
  };
}

const SOLVE = "Solve the task.";

/**
 * The workflow a fixed strategy runs for every question (the Conductor plans its own). A worker
 * missing from the pool is a message, not a throw. The answer-format instruction is not repeated
 * in any subtask: it ends the posed question, which every worker reads (once).
 */
export function stepsFor(s: Strategy, pool: Pool): Step[] | string {
  const need = (...xs: Picked[]): string[] | string => {
    const bad = xs.find((x) => !x.ok);
    return bad && !bad.ok ? bad.message : xs.map((x) => (x.ok ? x.id : ""));
  };
  switch (s.kind) {
    case "conductor":
      return "The Conductor plans each question itself.";
    case "single": {
      const w = need(pickWorker(pool, s.worker, 0));
      return typeof w === "string" ? w : [{ worker: w[0]!, subtask: SOLVE, access: [] }];
    }
    case "moa": {
      const ws = need(...(s.workers ?? pool.map((w) => w.name)).map((n) => pickWorker(pool, n, 0)));
      const agg = need(pickWorker(pool, s.aggregator, 0));
      if (typeof ws === "string") return ws;
      if (typeof agg === "string") return agg;
      return [
        ...ws.map((worker) => ({ worker, subtask: SOLVE, access: [] as number[] })),
        {
          worker: agg[0]!,
          subtask: `Several agents answered above. Check them for mistakes, combine the best of them and give one final answer.`,
          access: "all" as const,
        },
      ];
    }
    case "chain": {
      const names = s.workers ?? [undefined, undefined, undefined];
      const ws = need(...names.map((n, k) => pickWorker(pool, n, k)));
      if (typeof ws === "string") return ws;
      return [
        { worker: ws[0]!, subtask: SOLVE, access: [] },
        {
          worker: ws[1]!,
          subtask: "Check the previous answer step by step and correct any mistake.",
          access: "all",
        },
        {
          worker: ws[2]!,
          subtask: `Give the final answer, taking the check into account.`,
          access: "all",
        },
      ];
    }
    case "best-of-n": {
      const w = need(pickWorker(pool, s.worker, 0), pickWorker(pool, s.judge, 1));
      if (typeof w === "string") return w;
      return [
        ...Array.from({ length: s.n }, () => ({
          worker: w[0]!,
          subtask: SOLVE,
          access: [] as number[],
        })),
        {
          worker: w[1]!,
          subtask: `Judge the candidate answers above, pick the best one and restate it.`,
          access: "all" as const,
        },
      ];
    }
    case "workflow": {
      const lacking = s.steps.find((st) => !pool.some((w) => w.id === st.worker));
      if (lacking) return `The workflow names a worker the pool lacks (${lacking.worker}).`;
      return s.steps;
    }
  }
}
