import type { ReactNode } from "react";

/**
 * A labelled number input. `onChange` gets the text as typed: each caller clamps it to what its
 * setting allows.
 */
export function NumberField({
  label,
  testId,
  value,
  min,
  max,
  step,
  ariaLabel,
  onChange,
}: {
  label: ReactNode;
  testId: string;
  value: number;
  min?: number;
  max?: number;
  step?: number;
  /** Only where the label's text is not the name a screen reader should hear. */
  ariaLabel?: string;
  onChange: (raw: string) => void;
}) {
  return (
    <label className="field">
      {label}
      <input
        type="number"
        aria-label={ariaLabel}
        data-testid={testId}
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
