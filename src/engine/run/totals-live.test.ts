import { describe, expect, it } from "vitest";
import type { ParentPath, RunEvent } from "../schema/events.ts";
import type { Totals } from "../schema/record.ts";
import type { Usage } from "../schema/usage.ts";
import { WorkerSchema } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import { applyEvent, emptyRecord } from "./record.ts";
import { addCall, totalsOf, ZERO_TOTALS } from "./totals.ts";

/** A small deterministic generator (mulberry32), so a failing seed can be replayed. */
function random(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const pool = [
  WorkerSchema.parse({ id: "a", name: "Alpha", model: "alpha-1" }),
  WorkerSchema.parse({ id: "self", name: "Conductor", model: "c-7b", kind: "conductor" }),
];

interface Logged {
  event: RunEvent;
  /** The totals of the calls that stand once this event happened, as the generator meant them. */
  expected: Totals;
}

/**
 * A random event log of a whole run: refinement rounds, plans the Conductor is asked to redo,
 * steps that finish, fail after retries, are cancelled, skipped or re-run, and self-selected steps
 * whose nested workflow makes calls of its own. Costs are multiples of 1/8, so sums are exact.
 */
function randomLog(seed: number): Logged[] {
  const int = random(seed);
  const out: Logged[] = [];
  // The calls that stand, by where they sit; a re-run step's earlier call no longer does.
  const standing = new Map<string, { usage: Usage; cost: number }>();
  let at = 0;
  const emit = (event: RunEvent) => {
    let expected = ZERO_TOTALS;
    for (const c of standing.values()) expected = addCall(expected, c.usage, c.cost);
    out.push({ event, expected });
  };
  const usage = (): Usage => ({
    promptTokens: int(500),
    completionTokens: int(200),
    estimated: int(4) === 0,
    ...(int(3) === 0 ? { reasoningTokens: int(50) + 1 } : {}),
    ...(int(6) === 0 ? { cached: true } : {}),
  });
  const cost = () => int(16) / 8;

  const plan = (round: number, parent: ParentPath | undefined, steps: Step[], where: string) => {
    const scope = parent ? { parent } : {};
    const redone = int(3);
    for (let t = 0; t <= redone; t++) {
      emit({ type: "plan_start", at: ++at, round, messages: [], ...scope });
      emit({ type: "plan_delta", round, text: "model_id = [", ...scope });
      const u = usage();
      const c = cost();
      standing.set(`${where}plan${t}`, { usage: u, cost: c });
      emit(
        t < redone
          ? {
              type: "plan_finish",
              at: ++at,
              round,
              raw: "nonsense",
              usage: u,
              cost: c,
              error: { code: "unparseable_list", message: "no lists" },
              ...scope,
            }
          : { type: "plan_finish", at: ++at, round, raw: "ok", usage: u, cost: c, steps, ...scope },
      );
    }
  };

  /** One worker call at `step`, which ends as `how`; returns whether it finished. */
  const call = (round: number, step: number, parent: ParentPath | undefined, where: string) => {
    const scope = parent ? { parent } : {};
    const key = `${where}step${step}`;
    standing.delete(key);
    emit({ type: "step_queued", round, step, ...scope });
    const how = int(5);
    if (how === 0) {
      emit({
        type: "step_skip",
        at: ++at,
        round,
        step,
        code: "upstream_failed",
        message: "x",
        ...scope,
      });
      return;
    }
    emit({ type: "step_start", at: ++at, round, step, attempt: 1, messages: [], ...scope });
    emit({ type: "step_delta", round, step, text: "partial", ...scope });
    if (how === 1) {
      emit({ type: "step_cancel", at: ++at, round, step, ...scope });
      return;
    }
    emit({
      type: "step_retry",
      at: ++at,
      round,
      step,
      attempt: 2,
      delayMs: 1,
      code: "server",
      message: "5xx",
      ...scope,
    });
    emit({ type: "step_start", at: ++at, round, step, attempt: 2, messages: [], ...scope });
    if (how === 2) {
      emit({ type: "step_error", at: ++at, round, step, code: "server", message: "5xx", ...scope });
      return;
    }
    const u = usage();
    const c = cost();
    standing.set(key, { usage: u, cost: c });
    emit({ type: "step_finish", at: ++at, round, step, output: "42", usage: u, cost: c, ...scope });
  };

  /** A self-selected step: its nested workflow's calls, then its aggregate finish. */
  const selfStep = (round: number, step: number) => {
    const parent = [{ round, step }];
    emit({ type: "step_queued", round, step });
    emit({ type: "step_start", at: ++at, round, step, attempt: 1, messages: [] });
    const inner: Step[] = [{ worker: "a", subtask: "inner", access: [] }];
    const where = `${round}.${step}/`;
    plan(0, parent, inner, where);
    emit({ type: "round_start", at: ++at, round: 0, steps: inner, parent });
    call(0, 0, parent, where);
    emit({ type: "round_finish", at: ++at, round: 0, answer: "42", parent });
    // Its usage is the nested calls' sum, never counted again.
    emit({
      type: "step_finish",
      at: ++at,
      round,
      step,
      output: "42",
      usage: usage(),
      cost: 99,
      aggregate: true,
    });
  };

  emit({
    type: "run_start",
    at: ++at,
    runId: `run-${seed}`,
    question: "q",
    pool,
    maxSteps: 5,
    maxRounds: 2,
  });
  const rounds = 1 + int(3);
  for (let round = 0; round < rounds; round++) {
    const n = 1 + int(3);
    const steps: Step[] = Array.from({ length: n }, (_, i) => ({
      worker: i === 0 && int(3) === 0 ? "self" : "a",
      subtask: `s${i}`,
      access: [],
    }));
    plan(round, undefined, steps, `${round}/`);
    emit({ type: "round_start", at: ++at, round, steps });
    steps.forEach((s, i) =>
      s.worker === "self" ? selfStep(round, i) : call(round, i, undefined, `${round}/`),
    );
    // Re-running a step from the inspector: its earlier call no longer stands.
    if (int(2) === 0 && steps[n - 1]!.worker === "a") call(round, n - 1, undefined, `${round}/`);
    emit({ type: "round_finish", at: ++at, round, answer: "42" });
  }
  emit({ type: "run_finish", at: ++at, status: "done", reason: "round_cap", answer: "42" });
  return out;
}

describe("the live tally", () => {
  it("equals the totals derived from the record, and the calls that stand, at every event", () => {
    for (let seed = 1; seed <= 60; seed++) {
      let r = emptyRecord();
      for (const [i, { event, expected }] of randomLog(seed).entries()) {
        r = applyEvent(r, event);
        const where = `seed ${seed}, event ${i} (${event.type})`;
        expect(r.totals, where).toEqual(totalsOf(r));
        expect(r.totals, where).toEqual(expected);
      }
    }
  }, 30_000);

  it("is what run_finish leaves: the final totals are the tally just before it", () => {
    const log = randomLog(7);
    let r = emptyRecord();
    for (const { event } of log.slice(0, -1)) r = applyEvent(r, event);
    const before = r.totals;
    expect(before.calls).toBeGreaterThan(0);
    expect(applyEvent(r, log.at(-1)!.event).totals).toEqual(before);
  });
});
