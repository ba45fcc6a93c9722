import { listPrice } from "../../engine/pool/prices.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { useStudio } from "../../state/slices/store.ts";
import { ExtraBodyField } from "./ExtraBodyField.tsx";
import { PriceField } from "./PriceField.tsx";
import { NumberField } from "../ui/NumberField.tsx";

/** Temperature, max tokens, prices and the note a prompted Conductor reads. */
export function GenerationFields({ worker }: { worker: Worker }) {
  const update = (patch: Partial<Worker>) => useStudio.getState().updateWorker(worker.id, patch);
  const list = listPrice(worker.provider, worker.model);
  const isList =
    list !== undefined &&
    worker.price?.input === list.input &&
    worker.price?.output === list.output;
  const api = worker.kind === "openai";
  return (
    <div className="worker-grid">
      <NumberField
        label="Temperature"
        ariaLabel="Temperature"
        testId="worker-temperature"
        min={0}
        max={2}
        step={0.1}
        value={worker.temperature}
        onChange={(raw) => update({ temperature: Math.min(2, Math.max(0, Number(raw) || 0)) })}
      />
      <NumberField
        label="Max tokens"
        ariaLabel="Max tokens"
        testId="worker-max-tokens"
        min={1}
        step={256}
        value={worker.maxTokens}
        onChange={(raw) => update({ maxTokens: Math.max(1, Math.round(Number(raw) || 1)) })}
      />
      {api && (
        <>
          <PriceField worker={worker} side="input" label="Input $ / million tokens" />
          <PriceField worker={worker} side="output" label="Output $ / million tokens" />
          <p className="span2 muted small" data-testid="price-source">
            {isList
              ? `List price as of ${list.asOf} (${list.source}${list.note ? `; ${list.note}` : ""}). Editable.`
              : worker.price
                ? "Your price."
                : "Price unknown: cost estimates leave this worker out until you enter one."}
          </p>
          <ExtraBodyField worker={worker} />
        </>
      )}
      <label className="field span2">
        Note (shown to a prompted Conductor when worker names are on)
        <input
          aria-label="Note"
          data-testid="worker-note"
          value={worker.note ?? ""}
          onChange={(e) => update({ note: e.target.value || undefined })}
        />
      </label>
    </div>
  );
}
