import { useState } from "react";
import { fetchModels } from "../../engine/pool/probe.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { changeModel } from "../../state/slices/pool.ts";
import type { Credentials } from "./ConnectionTest.tsx";
import { workerCredentials } from "./ConnectionTest.tsx";

type Listing =
  | { state: "idle" }
  | { state: "loading" }
  | { state: "done"; models: string[] }
  | { state: "failed"; message: string };

/**
 * A model name, typed or picked from the endpoint's own list ("Fetch models"): a worker's or
 * the Conductor's.
 */
export function EndpointModelField(p: {
  baseURL: string;
  model: string;
  testId: string;
  onChange: (model: string) => void;
  onPick: (model: string) => void;
  credentials: () => Credentials;
}) {
  const [listing, setListing] = useState<Listing>({ state: "idle" });
  const fetchNow = () => {
    const creds = p.credentials();
    if (typeof creds === "string") {
      setListing({ state: "failed", message: creds });
      return;
    }
    setListing({ state: "loading" });
    void fetchModels({ baseURL: p.baseURL, ...creds }).then((result) =>
      setListing(
        result.ok
          ? { state: "done", models: result.models }
          : { state: "failed", message: result.message },
      ),
    );
  };
  return (
    <label className="field">
      Model
      <span className="row">
        <input
          aria-label="Model"
          data-testid={p.testId}
          placeholder="model name"
          value={p.model}
          onChange={(e) => p.onChange(e.target.value)}
        />
        <button
          type="button"
          data-testid="fetch-models"
          disabled={!p.baseURL || listing.state === "loading"}
          onClick={fetchNow}
          title="List the models this endpoint offers (GET /models)"
        >
          {listing.state === "loading" ? "Fetching…" : "Fetch models"}
        </button>
      </span>
      {listing.state === "done" && (
        <select
          aria-label="Models offered by the endpoint"
          data-testid="model-select"
          value={listing.models.includes(p.model) ? p.model : ""}
          onChange={(e) => {
            if (e.target.value) p.onPick(e.target.value);
          }}
        >
          <option value="">
            {listing.models.length} model{listing.models.length === 1 ? "" : "s"} offered — choose…
          </option>
          {listing.models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      )}
      {listing.state === "failed" && (
        <span className="pool-message error" role="alert" data-testid="fetch-models-error">
          {listing.message}
        </span>
      )}
    </label>
  );
}

/** A worker's model name. */
export function ModelField({ worker }: { worker: Worker }) {
  return (
    <EndpointModelField
      baseURL={worker.baseURL}
      model={worker.model}
      testId="worker-model"
      onChange={(m) => changeModel(worker, m)}
      onPick={(m) => changeModel(worker, m)}
      credentials={() => workerCredentials(worker)}
    />
  );
}
