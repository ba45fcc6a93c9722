import type { Worker } from "../../engine/schema/worker.ts";
import { MAX_DEPTH, MAX_ROUNDS } from "../../state/slices/settings.ts";
import { useStudio } from "../../state/slices/store.ts";
import { NumberField } from "../ui/NumberField.tsx";
import { CheckboxField } from "../ui/CheckboxField.tsx";

const SELF: Worker = {
  id: "conductor-self",
  name: "The Conductor itself",
  kind: "conductor",
  baseURL: "",
  model: "",
  temperature: 0.2,
  maxTokens: 4096,
  prefill: false,
  note: "Plans and runs a nested workflow for its subtask.",
};

const clampInt = (v: string, min: number, max: number) =>
  Math.min(max, Math.max(min, Math.round(Number(v) || 0)));

/**
 * Recursion and test-time scaling (docs/protocol.md §1.6): refinement rounds, the Conductor as its
 * own worker with a depth cap, and a budget of model calls (the paper caps recursion near twice one
 * round's calls).
 */
export function RecursionSettings() {
  const conductor = useStudio((s) => s.conductor);
  const selfIndex = useStudio((s) => s.pool.findIndex((w) => w.kind === "conductor"));
  const maxSteps = useStudio((s) => s.maxSteps);
  const st = useStudio.getState;
  const setSelf = (on: boolean) => {
    const s = st();
    if (on) {
      s.addWorker(SELF);
      s.setConductor({
        rounds: Math.max(1, s.conductor.rounds),
        maxCalls: s.conductor.maxCalls || 2 * (1 + maxSteps),
      });
    } else {
      s.setPool(
        s.pool.filter((w) => w.kind !== "conductor"),
        "remove the Conductor from the pool",
      );
      s.setConductor({ rounds: 0 });
    }
  };
  return (
    <section data-testid="recursion-settings">
      <h3>Recursion</h3>
      <div className="grid2">
        <CheckboxField testId="self-select" checked={selfIndex >= 0} onChange={setSelf}>
          List the Conductor itself as a worker{selfIndex >= 0 ? ` (Model id ${selfIndex})` : ""}: a
          step given to it plans and runs a nested workflow
        </CheckboxField>
        <NumberField
          label={<>Refinement rounds after the first (0–{MAX_ROUNDS})</>}
          min={0}
          max={MAX_ROUNDS}
          testId="rounds"
          value={conductor.rounds}
          onChange={(raw) => st().setConductor({ rounds: clampInt(raw, 0, MAX_ROUNDS) })}
        />
        <NumberField
          label={<>Nesting depth (1–{MAX_DEPTH})</>}
          min={1}
          max={MAX_DEPTH}
          testId="max-depth"
          value={conductor.maxDepth}
          onChange={(raw) => st().setConductor({ maxDepth: clampInt(raw, 1, MAX_DEPTH) })}
        />
        <NumberField
          label="Budget: model calls per run (0 = no cap)"
          min={0}
          testId="max-calls"
          value={conductor.maxCalls}
          onChange={(raw) => st().setConductor({ maxCalls: clampInt(raw, 0, 1000) })}
        />
      </div>
    </section>
  );
}
