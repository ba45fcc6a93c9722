import { JudgeMeter } from "../engine/eval/judge-meter.ts";
import type { OriginLimiter } from "../engine/eval/limiter.ts";
import { originOf } from "../engine/eval/limiter.ts";
import type { ScorerSpec } from "../engine/eval/scorers/registry.ts";
import { createScorer } from "../engine/eval/scorers/registry.ts";
import { workerBackend } from "./backends.ts";
import { browserCodeSandbox } from "./codeSandboxController.ts";
import { useStudio } from "./store.ts";

/**
 * The studio's scorer for a spec: the judge is the pool's worker of that name, gated by `limiter`
 * so its calls share its endpoint's concurrency limit with the runs; Pyodide loads only when the
 * first code answer is scored.
 */
export function studioScorer(spec: ScorerSpec, limiter: OriginLimiter) {
  const s = useStudio.getState();
  const judgeWorker = s.pool.find((w) => w.name === spec.options.judge);
  // Retried like a worker's calls, and metered per item (cost, tokens, calls, the spending cap).
  const judgeMeter = judgeWorker
    ? new JudgeMeter(
        limiter.wrap(workerBackend(s, judgeWorker), originOf(judgeWorker)),
        judgeWorker.price,
      )
    : undefined;
  const made = createScorer(spec, {
    judgeBackend: judgeMeter?.backend,
    codeSandbox: browserCodeSandbox,
  });
  return made.ok ? { ...made, judgeMeter } : made;
}

/** The judge's options from the setup form: its worker and, when edited, its rubric. */
export function judgeOptions(judge: string, rubric: string): Record<string, string> {
  return {
    ...(judge ? { judge } : {}),
    ...(rubric.trim() ? { rubric: rubric.trim() } : {}),
  };
}
