import { cancelLoad } from "../../state/models/inbrowserController.ts";
import { useStudio } from "../../state/slices/store.ts";

/** Download and load progress of the in-browser model: percent, megabytes, time left, cancel. */
export function LoadProgressBar() {
  const progress = useStudio((s) => s.ibProgress);
  const percent = Math.round((progress?.progress ?? 0) * 100);
  return (
    <div className="load-progress" data-testid="load-progress">
      <div
        className="progress-track"
        role="progressbar"
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <div className="row small">
        <span className="muted" data-testid="load-progress-text">
          {progress?.text ?? "Starting the model worker…"}
        </span>
        <button type="button" className="danger" data-testid="cancel-load" onClick={cancelLoad}>
          Cancel
        </button>
      </div>
    </div>
  );
}
