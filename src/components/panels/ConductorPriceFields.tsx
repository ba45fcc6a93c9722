import { useStudio } from "../../state/slices/store.ts";
import { PriceInput } from "../pool/PriceField.tsx";

/**
 * The Conductor's price, as a worker's: input and output dollars per million tokens, so planning
 * counts in a run's cost. The in-browser Conductor runs on the user's machine (the GPU through
 * WebLLM, the CPU or GPU through llama.cpp): it has no price field, only a line saying planning is free.
 */
export function ConductorPriceFields() {
  const backend = useStudio((s) => s.conductor.backend);
  const price = useStudio((s) => s.conductor.price);
  if (backend === "webllm")
    return (
      <p className="muted small span2" data-testid="conductor-price-free">
        Planning is free: the in-browser Conductor runs on this computer, so its plans cost $0.
      </p>
    );
  const set = (next: typeof price) => useStudio.getState().setConductor({ price: next });
  return (
    <>
      <PriceInput
        price={price}
        side="input"
        label="Input $ / million tokens"
        testId="conductor-price-input"
        onChange={set}
      />
      <PriceInput
        price={price}
        side="output"
        label="Output $ / million tokens"
        testId="conductor-price-output"
        onChange={set}
      />
      <p className="span2 muted small" data-testid="conductor-price-source">
        {price
          ? "Your price: each plan's cost counts in the run's totals."
          : "Price unknown: each plan call counts as unpriced (a run's cost reads “≥ $…”) until you enter one."}
      </p>
    </>
  );
}
