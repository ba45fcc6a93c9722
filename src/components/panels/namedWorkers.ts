import { namedWorkersAdvice } from "../../engine/conductor/named-workers.ts";
import type { ConductorSettings } from "../../state/slices/settings.ts";
import { useStudio } from "../../state/slices/store.ts";

/** The rule lives in the engine, shared with the CLI's config. */
export { namedWorkersAdvice };

/** Changes which Conductor plans; the worker-names option follows the new Conductor's default. */
export function chooseConductor(
  patch: Partial<Pick<ConductorSettings, "backend" | "model" | "webllmModelId">>,
): void {
  const s = useStudio.getState();
  const next = { ...s.conductor, ...patch };
  s.setConductor({ ...patch, namedWorkers: namedWorkersAdvice(next, s.customRecords).on });
}
