// Shared by the runner's tests: a pool with the Conductor itself in it, and the options of a run
// that starts from the plan on a clock the test controls.
import type { Pool, Price } from "../../../engine/schema/worker.ts";
import { ConductorConfigSchema, WorkerSchema } from "../../../engine/schema/worker.ts";
import type { RunnerOptions } from "../../../engine/exec/runner.ts";
import type { ChatBackend } from "../../../engine/llm/types.ts";

/** Alpha (w0, m0), Beta (w1, m1) and the Conductor itself (w2, "Self"); priced when `price` is. */
export const selfPool = (price?: Price): Pool =>
  ["Alpha", "Beta", "Self"].map((name, i) =>
    WorkerSchema.parse({
      id: `w${i}`,
      name,
      model: `m${i}`,
      kind: i === 2 ? "conductor" : "openai",
      ...(price ? { price } : {}),
    }),
  );

export const conductor7b = ConductorConfigSchema.parse({ model: "conductor-7b" });

type Fixed = "signal" | "now" | "start";

/**
 * A run from the plan with a fresh signal and a clock that moves `by` ms each read, from `from`;
 * `o` may override any of these.
 */
export function runnerOptions(
  o: Omit<RunnerOptions, Fixed> & Partial<Pick<RunnerOptions, Fixed>>,
  { from, by }: { from: number; by: number } = { from: 1000, by: 10 },
): RunnerOptions {
  let t = from;
  return {
    signal: new AbortController().signal,
    now: () => (t += by),
    start: { from: "plan" },
    ...o,
  };
}

/**
 * A run of "Is 391 prime?" in which the 7B Conductor plans through `conductorBackend` and every
 * worker answers through `workers`, on `runnerOptions`' clock; `over` may change any option.
 */
export function questionRun(
  pool: Pool,
  { conductorBackend, workers }: { conductorBackend: ChatBackend; workers: ChatBackend },
  over: Partial<RunnerOptions> = {},
  clock?: { from: number; by: number },
): RunnerOptions {
  return runnerOptions(
    {
      question: "Is 391 prime?",
      pool,
      conductor: conductor7b,
      conductorBackend,
      backendFor: () => workers,
      ...over,
    },
    clock,
  );
}
