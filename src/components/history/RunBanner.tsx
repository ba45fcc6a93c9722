import { resumePoint } from "../../engine/run/continue.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import { resumeNow } from "../../state/run/controller.ts";
import { adoptRunPool, poolDiffers } from "../../state/run/open.ts";
import { useStudio } from "../../state/slices/store.ts";
import { isExampleRun } from "../examples/examples.ts";

/** What an interrupted run kept, in words: only what it really has. */
function keptWords(record: RunRecord): string {
  const point = resumePoint(record);
  if (point.at === "plan")
    return "The Conductor was still planning: no step ran. Resume plans again.";
  const done = point.keep.size;
  if (done === 0) return "No step had finished. Resume runs them.";
  return `${done} finished step${done === 1 ? "" : "s"} kept ${done === 1 ? "its output" : "their outputs"}. Resume runs the rest.`;
}

/** What the run on screen needs said: it was interrupted (Resume), or it used another pool. */
export function RunBanner() {
  const status = useStudio((s) => s.record.status);
  const record = useStudio((s) => (s.record.status === "interrupted" ? s.record : null));
  const phase = useStudio((s) => s.phase);
  const differs = useStudio((s) => s.liveId === null && poolDiffers(s.record, s.pool));
  const example = useStudio((s) => isExampleRun(s.record.id));
  if (status !== "interrupted" && !differs) return null;
  return (
    <div className="focus-banner" data-testid="run-banner">
      {status === "interrupted" && (
        <span data-testid="interrupted-note">
          This run was interrupted (the page was reloaded or closed). {record && keptWords(record)}{" "}
          <button
            type="button"
            className="primary"
            data-testid="resume"
            disabled={phase !== "idle"}
            onClick={() => void resumeNow()}
          >
            Resume
          </button>
        </span>
      )}
      {differs && example && (
        // An example's workers answered on the local test server: nothing for a newcomer to adopt.
        <span data-testid="example-pool-note">
          This example brought its own recorded workers; your Settings need none of them to explore
          it. To run your own question, set up workers in Settings.
        </span>
      )}
      {differs && !example && (
        <span>
          This run used a different worker pool than Settings.{" "}
          <button
            type="button"
            data-testid="use-run-pool"
            onClick={() => {
              if (
                window.confirm(
                  "Replace the Settings pool with this run's pool? Keys stay as they are.",
                )
              )
                adoptRunPool();
            }}
          >
            Use this run's pool
          </button>
        </span>
      )}
    </div>
  );
}
