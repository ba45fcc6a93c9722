import { EXAMPLES, openExample } from "./examples.ts";

/**
 * One click to a recorded run, so the whole studio can be explored before any setup: on the
 * empty canvas, and in History (where a second example is still one click away).
 */
export function ExampleButtons({ where = "welcome" }: { where?: "welcome" | "history" }) {
  const prefix = where === "history" ? "history-" : "";
  return (
    <div className={`example-buttons ${where}`} data-testid={`${prefix}examples`}>
      <span>{where === "history" ? "Examples:" : "No model yet? Open an example run:"}</span>
      {EXAMPLES.map((ex) => (
        <button
          key={ex.file}
          type="button"
          className={where === "history" ? "small" : undefined}
          data-testid={`${prefix}${ex.testId}`}
          onClick={() => void openExample(ex.file)}
        >
          {ex.label}
        </button>
      ))}
    </div>
  );
}
