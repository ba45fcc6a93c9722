import { CUSTOM_PRESET, PROVIDER_PRESETS } from "../../engine/pool/presets.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { changeBaseURL, changeProvider } from "../../state/slices/pool.ts";
import { BrowserStatusNote } from "./BrowserStatusNote.tsx";
import { HeadersField } from "./HeadersField.tsx";
import { KeyField } from "./KeyField.tsx";
import { ModelField } from "./ModelField.tsx";

/** Where a worker is called: provider, base URL, model and key. */
export function EndpointFields({ worker }: { worker: Worker }) {
  return (
    <div className="worker-grid">
      <label className="field">
        Provider
        <select
          aria-label="Provider"
          data-testid="worker-provider"
          value={worker.provider ?? CUSTOM_PRESET.id}
          onChange={(e) => changeProvider(worker, e.target.value)}
        >
          {PROVIDER_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          <option value={CUSTOM_PRESET.id}>{CUSTOM_PRESET.label}</option>
        </select>
      </label>
      <label className="field">
        Base URL
        <input
          aria-label="Base URL"
          data-testid="worker-baseurl"
          placeholder="https://…/v1"
          value={worker.baseURL}
          onChange={(e) => changeBaseURL(worker, e.target.value.trim())}
        />
      </label>
      <ModelField worker={worker} />
      <KeyField worker={worker} />
      <BrowserStatusNote provider={worker.provider} workerId={worker.id} />
      <HeadersField worker={worker} />
    </div>
  );
}
