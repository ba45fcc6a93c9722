import { useState } from "react";
import type { ProbeOutcome } from "../../engine/pool/probe.ts";
import { describeOutcome, testConnection } from "../../engine/pool/probe.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { credentialsFor, movedSecretMessage, originOf } from "../../state/keybinding.ts";
import { useStudio } from "../../state/store.ts";

/** "Test connection": the smallest chat request to this worker, and what came of it. */
export function ConnectionTest({ worker }: { worker: Worker }) {
  const [outcome, setOutcome] = useState<ProbeOutcome | "running" | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const run = () => {
    const s = useStudio.getState();
    // A key entered for another origin is never sent: nothing is requested until it is settled.
    const moved = movedSecretMessage(s, worker.id, worker.name, originOf(worker.baseURL));
    setRefused(moved);
    if (moved) {
      setOutcome(null);
      return;
    }
    setOutcome("running");
    void testConnection({
      baseURL: worker.baseURL,
      model: worker.model,
      ...credentialsFor(s, worker),
    }).then((result) => {
      setOutcome(result);
      useStudio.getState().markTested(worker.id, result.kind === "ok");
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
      {refused && (
        <span className="connection-bad small" role="alert" data-testid="connection-refused">
          {refused}
        </span>
      )}
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
