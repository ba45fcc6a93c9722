// Shared by the planRound and executeWorkflow tests: starters with a test's options fixed, and
// readers of the events they yield.
import type { FakeBackend } from "../llm/fake-backend.ts";
import type { ChatBackend } from "../../../engine/llm/types.ts";
import type { RunEvent, RunEventType } from "../../../engine/schema/events.ts";
import type { Step } from "../../../engine/schema/workflow.ts";
import type { ExecuteOptions } from "../../../engine/exec/execute.ts";
import { executeWorkflow } from "../../../engine/exec/execute.ts";
import type { PlanOptions } from "../../../engine/exec/plan.ts";
import { planRound } from "../../../engine/exec/plan.ts";

/** Starts planRound with `base` and a fresh signal; `extra` overrides either. */
export function planStarter(base: Omit<PlanOptions, "backend" | "signal">) {
  return (backend: ChatBackend, extra: Partial<PlanOptions> = {}) =>
    planRound({ ...base, backend, signal: new AbortController().signal, ...extra });
}

/** Starts executeWorkflow with `base`, one backend for every worker and a fresh signal. */
export function workflowStarter(base: Omit<ExecuteOptions, "steps" | "backendFor" | "signal">) {
  return (steps: Step[], backend: FakeBackend, extra: Partial<ExecuteOptions> = {}) =>
    executeWorkflow({
      ...base,
      steps,
      backendFor: () => backend,
      signal: new AbortController().signal,
      ...extra,
    });
}

/** Runs a generator to its end: the events it yielded and the value it returned. */
export async function drain<R>(gen: AsyncGenerator<RunEvent, R>) {
  const events: RunEvent[] = [];
  for (;;) {
    const next = await gen.next();
    if (next.done) return { events, outcome: next.value };
    events.push(next.value);
  }
}

export function ofType<T extends RunEventType>(events: RunEvent[], type: T) {
  return events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
}
