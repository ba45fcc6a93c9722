import { useState } from "react";
import type { ProbeOutcome } from "../../engine/pool/probe.ts";
import { describeOutcome, testConnection } from "../../engine/pool/probe.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { useStudio } from "../../state/store.ts";
import { markTested } from "./tested.ts";

/** "Test connection": the smallest chat request to this worker, and what came of it. */
export function ConnectionTest({ worker }: { worker: Worker }) {
  const [outcome, setOutcome] = useState<ProbeOutcome | "running" | null>(null);
  const run = () => {
    setOutcome("running");
    const apiKey = useStudio.getState().keys[worker.id];
    void testConnection({
      baseURL: worker.baseURL,
      model: worker.model,
      ...(apiKey ? { apiKey } : {}),
      ...(worker.headers ? { headers: worker.headers } : {}),
    }).then((result) => {
      setOutcome(result);
      markTested(worker.id, result.kind === "ok");
    });
  };
  return (
    <div className="row connection-test">
      <button
        type="button"
        data-testid="test-connection"
        disabled={outcome === "running" || !worker.baseURL || !worker.model}
        onClick={run}
        title="Send one tiny request (one short message, one output token)"
      >
        {outcome === "running" ? "Testing…" : "Test connection"}
      </button>
      {outcome !== null && outcome !== "running" && (
        <span
          className={outcome.kind === "ok" ? "connection-ok small" : "connection-bad small"}
          role="status"
          data-testid="connection-result"
          data-outcome={outcome.kind}
        >
          {describeOutcome(outcome)}
        </span>
      )}
    </div>
  );
}
