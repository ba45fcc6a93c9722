import { OriginLimiter, originOf } from "../engine/eval/limiter.ts";
import type { ScorerSpec } from "../engine/eval/scorers/registry.ts";
import { createScorer } from "../engine/eval/scorers/registry.ts";
import { workerBackend } from "./backends.ts";
import { browserCodeSandbox } from "./codeSandbox.ts";
import { useStudio } from "./store.ts";

/**
 * The studio's scorer for a spec: the judge is the pool's worker of that name, gated by `limiter`
 * so its calls share its endpoint's concurrency limit with the runs; Pyodide loads only when the
 * first code answer is scored.
 */
export function studioScorer(spec: ScorerSpec, limiter: OriginLimiter) {
  const s = useStudio.getState();
  const judgeWorker = s.pool.find((w) => w.name === spec.options.judge);
  return createScorer(spec, {
    judgeBackend: judgeWorker && limiter.wrap(workerBackend(s, judgeWorker), originOf(judgeWorker)),
    codeSandbox: browserCodeSandbox,
  });
}
