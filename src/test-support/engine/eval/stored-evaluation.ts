// An evaluation as the studio stores it, for tests that read stored ones (Table 1, history).
import type { Evaluation } from "../../../engine/eval/schema.ts";

/**
 * A multiple-choice evaluation `id` (also its name and dataset's) of one question, with no pool and
 * one Conductor strategy, of `benchmark` when it ran a preset; `over` replaces any field.
 */
export function storedEvaluation(
  id: string,
  benchmark: Evaluation["benchmark"] | null,
  over: Partial<Evaluation> = {},
): Evaluation {
  return {
    format: "conductor-studio-eval",
    version: 1,
    id,
    name: id,
    createdAt: 0,
    dataset: { name: id, hash: "h", size: 1 },
    ...(benchmark ? { benchmark } : {}),
    strategies: [{ kind: "conductor", rounds: 0 }],
    repeats: 1,
    seed: 0,
    scorer: { id: "mc", options: {}, version: 1 },
    pool: [],
    conductor: null,
    concurrency: 1,
    maxCost: null,
    ...over,
  };
}
