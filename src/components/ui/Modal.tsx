import { useRef } from "react";
import type { ReactNode } from "react";
import { useDialogFocus } from "./useDialogFocus.ts";

/** The backdrop a modal dialog sits on, and whether a click on it (outside the dialog) closes. */
interface Backdrop {
  className: string;
  closesOnClick: boolean;
}

interface ModalProps {
  /** The dialog's own classes. */
  className: string;
  testId: string;
  /** Escape (and a backdrop click where it closes) calls this. */
  onClose: () => void;
  /** The accessible name: a label, or the id of the heading that names the dialog. */
  label?: string;
  labelledBy?: string;
  /** Where focus goes on close when what had it is gone: a selector (see useDialogFocus). */
  fallback?: string;
  /** None for a full-screen view. */
  backdrop?: Backdrop;
  children: ReactNode;
}

/**
 * The one modal frame: a `role="dialog"` element with the keyboard contract of useDialogFocus
 * (inert page, focus in, Tab kept inside, Escape closes, focus back), on an optional backdrop.
 */
export function Modal(props: ModalProps) {
  const { className, testId, onClose, label, labelledBy, fallback, backdrop, children } = props;
  const ref = useRef<HTMLDivElement>(null);
  useDialogFocus(ref, onClose, fallback);
  const closesOnClick = backdrop?.closesOnClick === true;
  const dialog = (
    <div
      ref={ref}
      className={className}
      role="dialog"
      aria-modal="true"
      aria-label={label}
      aria-labelledby={labelledBy}
      tabIndex={-1}
      data-testid={testId}
      onClick={closesOnClick ? (e) => e.stopPropagation() : undefined}
    >
      {children}
    </div>
  );
  if (!backdrop) return dialog;
  return (
    <div
      className={backdrop.className}
      role="presentation"
      onClick={closesOnClick ? onClose : undefined}
    >
      {dialog}
    </div>
  );
}

/** The usual backdrop: a click outside the dialog closes it. */
export const CLOSING_BACKDROP: Backdrop = { className: "dialog-backdrop", closesOnClick: true };
