import { useStudio } from "../../state/slices/store.ts";
import { isExampleRun } from "./examples.ts";

/** Says that the run on screen is a shipped example, not the user's own, while it is open. */
export function ExampleBanner() {
  const example = useStudio((s) => s.record.status !== "draft" && isExampleRun(s.record.id));
  if (!example) return null;
  return (
    <div className="example-banner" role="note" data-testid="example-banner">
      <strong>Example run</strong>: recorded from the local test server with scripted answers, no
      real model was called. Explore the graph, the inspector, History and Compare; set up a
      Conductor and workers to run your own.
    </div>
  );
}
