import type { Worker } from "../../engine/schema/worker.ts";
import { useStudio } from "../../state/store.ts";

/** One side of a worker's price. Both sides empty means the price is unknown. */
export function PriceField({
  worker,
  side,
  label,
}: {
  worker: Worker;
  side: "input" | "output";
  label: string;
}) {
  const other = side === "input" ? "output" : "input";
  return (
    <label className="field">
      {label}
      <input
        type="number"
        aria-label={label}
        data-testid={`worker-price-${side}`}
        min={0}
        step={0.01}
        placeholder="unknown"
        value={worker.price?.[side] ?? ""}
        onChange={(e) => {
          const raw = e.target.value;
          const value = raw === "" ? undefined : Math.max(0, Number(raw) || 0);
          const otherValue = worker.price?.[other];
          const mine = value ?? 0;
          const theirs = otherValue ?? 0;
          const price =
            value === undefined && otherValue === undefined
              ? undefined
              : side === "input"
                ? { input: mine, output: theirs }
                : { input: theirs, output: mine };
          useStudio.getState().updateWorker(worker.id, { price });
        }}
      />
    </label>
  );
}
