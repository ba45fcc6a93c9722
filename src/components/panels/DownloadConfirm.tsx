import type { ReactNode } from "react";

/** Megabytes as "512 MB" or "4.3 GB". */
export const formatMB = (n: number) =>
  n >= 1024 ? `${(n / 1024).toFixed(1)} GB` : `${Math.round(n)} MB`;

/** Asks before downloading an in-browser model of `sizeMB` (unknown: "several GB"). */
export function DownloadConfirm({
  sizeMB,
  testId,
  yesTestId,
  children,
  onYes,
  onNo,
}: {
  sizeMB: number | undefined;
  testId: string;
  yesTestId?: string;
  /** What follows "This downloads about … once;". */
  children: ReactNode;
  onYes: () => void;
  onNo: () => void;
}) {
  return (
    <div className="confirm-box" data-testid={testId}>
      <p>
        This downloads about <strong>{sizeMB ? formatMB(sizeMB) : "several GB"}</strong> once;{" "}
        {children}
      </p>
      <div className="row">
        <button type="button" className="primary" data-testid={yesTestId} onClick={onYes}>
          Download and load
        </button>
        <button type="button" onClick={onNo}>
          Not now
        </button>
      </div>
    </div>
  );
}
