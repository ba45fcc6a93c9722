import type { Price, Worker } from "../../engine/schema/worker.ts";
import { useStudio } from "../../state/slices/store.ts";
import { NumberField } from "../ui/NumberField.tsx";

/**
 * The price after one side is typed as `raw`: an empty side counts as 0 while the other is set
 * (and shows as 0). Emptying a side while the other is 0 or empty makes the price unknown
 * (undefined) again; a price of 0 / 0 is typed, never left over.
 */
export function nextPrice(
  price: Price | undefined,
  side: "input" | "output",
  raw: string,
): Price | undefined {
  const value = raw === "" ? undefined : Math.max(0, Number(raw) || 0);
  const otherValue = price?.[side === "input" ? "output" : "input"];
  if (value === undefined && !otherValue) return undefined;
  const mine = value ?? 0;
  const theirs = otherValue ?? 0;
  return side === "input" ? { input: mine, output: theirs } : { input: theirs, output: mine };
}

/** One side of a price ($ per million tokens), for a worker or the Conductor. */
export function PriceInput({
  price,
  side,
  label,
  testId,
  onChange,
}: {
  price: Price | undefined;
  side: "input" | "output";
  label: string;
  testId: string;
  onChange: (price: Price | undefined) => void;
}) {
  return (
    <NumberField
      label={label}
      ariaLabel={label}
      testId={testId}
      min={0}
      step={0.01}
      placeholder="unknown"
      value={price?.[side] ?? ""}
      onChange={(raw) => onChange(nextPrice(price, side, raw))}
    />
  );
}

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
  return (
    <PriceInput
      price={worker.price}
      side={side}
      label={label}
      testId={`worker-price-${side}`}
      onChange={(price) => useStudio.getState().updateWorker(worker.id, { price })}
    />
  );
}
