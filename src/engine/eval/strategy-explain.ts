import type { Pool } from "../schema/worker.ts";
import { DEFAULT_MAX_STEPS } from "../constants.ts";
import type { Strategy } from "./strategy.ts";
import { EMPTY_POOL, stepsFor } from "./strategy.ts";

/** What one strategy does with a question: who answers, and how many model calls it makes. */
export interface StrategyExplanation {
  /** One sentence naming the workers and their roles. */
  text: string;
  /** Workers it may call, by name, in pool order for the Conductor and step order otherwise. */
  workers: string[];
  /** Model calls per question and repeat (the Conductor's own included); min = max when fixed. */
  calls: { min: number; max: number };
}

/** "a", "a and b", "a, b and c". */
export function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "3 calls" or "2–12 calls" a question. */
export function callsText(calls: { min: number; max: number }): string {
  return calls.min === calls.max
    ? `${plural(calls.min, "call")} a question`
    : `${calls.min}–${calls.max} calls a question`;
}

/**
 * Explains a strategy against a pool: the fixed strategies from the very steps they run
 * (`stepsFor`, so the text cannot drift from what is called), the Conductor from its step cap and
 * refinement rounds. A strategy the pool cannot serve is its reason, as `stepsFor` gives it.
 */
export function explainStrategy(s: Strategy, pool: Pool): StrategyExplanation | string {
  const nameOf = (id: string) => pool.find((w) => w.id === id)?.name ?? id;
  if (s.kind === "conductor") {
    if (pool.length === 0) return EMPTY_POOL;
    const maxSteps = s.maxSteps ?? DEFAULT_MAX_STEPS;
    const rounds = s.rounds;
    // A round is one Conductor call and 1..maxSteps steps; a refinement round may only accept.
    const calls = { min: 2 + rounds, max: (1 + maxSteps) * (1 + rounds) };
    const names = pool.map((w) => w.name);
    const self = pool.some((w) => w.kind === "conductor");
    const refine =
      rounds > 0
        ? ` ${plural(rounds, "refinement round")} may add a workflow each (or accept the answer).`
        : "";
    const nested = self
      ? " A step given to the Conductor plans a nested workflow: more calls."
      : "";
    return {
      text: `The Conductor plans each question: 1 planning call, then 1–${maxSteps} steps of its choice from ${listNames(names)}.${refine}${nested}`,
      workers: names,
      calls,
    };
  }
  const steps = stepsFor(s, pool);
  if (typeof steps === "string") return steps;
  const who = steps.map((st) => nameOf(st.worker));
  const n = steps.length;
  // A step given to the Conductor itself plans a nested workflow: its plan and 1..cap steps.
  const selfSteps = steps.filter(
    (st) => pool.find((w) => w.id === st.worker)?.kind === "conductor",
  ).length;
  const calls = { min: n + selfSteps, max: n + selfSteps * DEFAULT_MAX_STEPS };
  const last = who[n - 1] ?? "";
  const attempts = who.slice(0, -1);
  const distinct = [...new Set(attempts)];
  switch (s.kind) {
    case "single":
      return { text: `${last} answers alone.`, workers: who, calls };
    case "moa":
      return {
        text: `${listNames(distinct)} each answer on their own; ${last} checks and combines their answers (Mixture-of-Agents).`,
        workers: who,
        calls,
      };
    case "chain":
      return {
        text: `${who[0]} answers, ${who[1]} checks that answer, ${who[2]} gives the final answer.`,
        workers: who,
        calls,
      };
    case "best-of-n":
      return {
        text: `${who[0]} answers ${plural(n - 1, "time")} independently; ${last} picks the best answer.`,
        workers: who,
        calls,
      };
    case "workflow":
      return {
        text: `The studio's workflow on every question: ${plural(n, "step")}, ${who.join(" → ")}.`,
        workers: who,
        calls,
      };
  }
}
