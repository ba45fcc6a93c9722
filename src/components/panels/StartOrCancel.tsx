import type { ReactNode } from "react";
import { cancelNow } from "../../state/run/controller.ts";

/**
 * The button that starts a job (a plan, a run) or, while that job runs on screen, the one that
 * cancels it in its place.
 */
export function StartOrCancel({
  running,
  cancelTestId,
  cancelLabel,
  testId,
  disabled,
  title,
  onStart,
  children,
}: {
  /** The job runs, and it is the one on screen (one in the background has its own banner). */
  running: boolean;
  cancelTestId: string;
  cancelLabel: string;
  testId: string;
  disabled: boolean;
  title?: string;
  onStart: () => void;
  children: ReactNode;
}) {
  return running ? (
    <button type="button" className="danger" data-testid={cancelTestId} onClick={cancelNow}>
      {cancelLabel}
    </button>
  ) : (
    <button
      type="button"
      className="primary"
      data-testid={testId}
      disabled={disabled}
      onClick={onStart}
      title={title}
    >
      {children}
    </button>
  );
}
