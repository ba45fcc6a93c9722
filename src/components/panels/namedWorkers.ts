import type { ModelRecordLike } from "../../engine/llm/webllm/catalogue.ts";
import type { ConductorSettings } from "../../state/settings.ts";
import { useStudio } from "../../state/store.ts";

/**
 * Whether the Conductor should see worker names and notes (SPEC 1.4), and why: a trained
 * Conductor (custom weights, or an endpoint serving one) saw only anonymous ids; a prompted general
 * model does better with names.
 */
export function namedWorkersAdvice(
  c: Pick<ConductorSettings, "backend" | "model" | "webllmModelId">,
  customRecords: readonly ModelRecordLike[],
): { on: boolean; reason: string } {
  if (c.backend === "webllm" && customRecords.some((r) => r.model_id === c.webllmModelId))
    return {
      on: false,
      reason:
        "Off by default: your own weights are a trained Conductor, which saw workers only as anonymous ids.",
    };
  if (c.backend === "remote" && /conductor/i.test(c.model))
    return {
      on: false,
      reason: `Off by default: "${c.model}" looks like a trained Conductor, which saw workers only as anonymous ids.`,
    };
  return {
    on: true,
    reason:
      "On by default: a prompted general model plans better when each worker line carries its name and note.",
  };
}

/** Changes which Conductor plans; the worker-names option follows the new Conductor's default. */
export function chooseConductor(
  patch: Partial<Pick<ConductorSettings, "backend" | "model" | "webllmModelId">>,
): void {
  const s = useStudio.getState();
  const next = { ...s.conductor, ...patch };
  s.setConductor({ ...patch, namedWorkers: namedWorkersAdvice(next, s.customRecords).on });
}
