// What the studio gives the engine's evaluation core for scoring: workers, judge, sandbox.
import type { ScoringDeps } from "../../engine/eval/session.ts";
import { workerBackend } from "../run/backends.ts";
import { browserCodeSandbox } from "../models/codeSandboxController.ts";
import { useStudio } from "../slices/store.ts";

export { judgeOptions } from "../../engine/eval/session.ts";

/**
 * What the studio gives the evaluation core to score with: the judge is the pool's worker of the
 * name the spec stores; Pyodide loads only when the first code answer is scored.
 */
export function studioScoringDeps(): ScoringDeps {
  const s = useStudio.getState();
  return {
    workers: s.pool,
    judgeBackend: (judge) => workerBackend(s, judge),
    codeSandbox: browserCodeSandbox,
  };
}
