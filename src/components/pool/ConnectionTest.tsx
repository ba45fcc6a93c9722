import { useState } from "react";
import type { ProbeOutcome } from "../../engine/pool/probe.ts";
import { describeOutcome, testConnection } from "../../engine/pool/probe.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { credentialsFor, movedSecretMessage, originOf } from "../../state/slices/keybinding.ts";
import { useStudio } from "../../state/slices/store.ts";

/** What a call to an endpoint carries, or why nothing may be sent to it yet. */
export type Credentials = { apiKey?: string; headers?: Record<string, string> } | string;

/** A worker's credentials, or the message that its key was entered for another origin. */
export function workerCredentials(worker: Worker): Credentials {
  const s = useStudio.getState();
  // A key entered for another origin is never sent: nothing is requested until it is settled.
  return (
    movedSecretMessage(s, worker.id, worker.name, originOf(worker.baseURL)) ??
    credentialsFor(s, worker)
  );
}

/**
 * "Test connection": the smallest chat request to an endpoint (a worker's or the Conductor's),
 * and what came of it.
 */
export function EndpointTest(p: {
  baseURL: string;
  model: string;
  credentials: () => Credentials;
  onResult?: (ok: boolean) => void;
}) {
  const [outcome, setOutcome] = useState<ProbeOutcome | "running" | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const run = () => {
    const creds = p.credentials();
    setRefused(typeof creds === "string" ? creds : null);
    if (typeof creds === "string") {
      setOutcome(null);
      return;
    }
    setOutcome("running");
    void testConnection({ baseURL: p.baseURL, model: p.model, ...creds }).then((result) => {
      setOutcome(result);
      p.onResult?.(result.kind === "ok");
    });
  };
  return (
    <div className="row connection-test">
      <button
        type="button"
        data-testid="test-connection"
        disabled={outcome === "running" || !p.baseURL || !p.model}
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

/** A worker's "Test connection". */
export function ConnectionTest({ worker }: { worker: Worker }) {
  return (
    <EndpointTest
      baseURL={worker.baseURL}
      model={worker.model}
      credentials={() => workerCredentials(worker)}
      onResult={(ok) => useStudio.getState().markTested(worker.id, ok)}
    />
  );
}
