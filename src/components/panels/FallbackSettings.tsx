import { useStudio } from "../../state/slices/store.ts";
import { CheckboxField } from "../ui/CheckboxField.tsx";

/**
 * What a run does when the Conductor cannot plan: ask it once more for an output that did not
 * parse, then, if chosen, let one worker answer the question alone (recorded as a fallback).
 */
export function FallbackSettings() {
  const replanOnce = useStudio((s) => s.conductor.replanOnce);
  const fallbackWorker = useStudio((s) => s.conductor.fallbackWorker);
  const pool = useStudio((s) => s.pool);
  const setConductor = useStudio((s) => s.setConductor);
  const workers = pool.filter((w) => w.kind !== "conductor");
  const gone = fallbackWorker !== "" && !workers.some((w) => w.id === fallbackWorker);
  return (
    <section data-testid="fallback-settings">
      <h3>When the Conductor cannot plan</h3>
      <div className="grid2">
        <CheckboxField
          testId="replan-once"
          checked={replanOnce}
          onChange={(checked) => setConductor({ replanOnce: checked })}
        >
          Ask the Conductor once more when its plan does not parse
        </CheckboxField>
        <label className="field span2">
          Then answer with one worker alone (recorded as a fallback)
          <select
            data-testid="fallback-worker"
            value={gone ? "" : fallbackWorker}
            onChange={(e) => setConductor({ fallbackWorker: e.target.value })}
          >
            <option value="">No fallback: show the failure</option>
            {workers.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        {gone && (
          <p className="warning span2" data-testid="fallback-gone">
            The fallback worker was removed from the pool; choose another.
          </p>
        )}
      </div>
    </section>
  );
}
