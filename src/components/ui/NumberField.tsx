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
  placeholder,
  ariaLabel,
  onChange,
}: {
  label: ReactNode;
  testId: string;
  /** "" shows the field empty, with its placeholder. */
  value: number | "";
  placeholder?: string;
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
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
