import type { ReactNode } from "react";

/** A button drawn as a link: a row's or a note's small action. */
export function LinkButton({
  testId,
  onClick,
  children,
}: {
  testId: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className="link" data-testid={testId} onClick={onClick}>
      {children}
    </button>
  );
}
