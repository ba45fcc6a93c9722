import {
  BROWSER_STATUS_LABEL,
  CUSTOM_PRESET,
  PROVIDER_PRESETS,
} from "../../engine/pool/presets.ts";
import { CONDUCTOR_CHOICE, IN_BROWSER_CHOICE, addWorkerFrom } from "../../state/slices/pool.ts";

/** "Add worker": a menu of provider presets, a custom endpoint, in-browser and Conductor workers. */
export function PresetMenu() {
  return (
    <span className="row">
      <select
        aria-label="Add a worker from a preset"
        data-testid="add-from-preset"
        value=""
        onChange={(e) => {
          if (e.target.value) addWorkerFrom(e.target.value);
        }}
      >
        <option value="">+ Add from preset…</option>
        <optgroup label="Providers">
          {PROVIDER_PRESETS.filter((p) => !p.local).map((p) => (
            <option key={p.id} value={p.id} title={BROWSER_STATUS_LABEL[p.browser]}>
              {p.label}
            </option>
          ))}
        </optgroup>
        <optgroup label="Local servers">
          {PROVIDER_PRESETS.filter((p) => p.local).map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </optgroup>
        <optgroup label="Other">
          <option value={CUSTOM_PRESET.id}>{CUSTOM_PRESET.label}</option>
          <option value={IN_BROWSER_CHOICE}>In-browser model (no key)</option>
          <option value={CONDUCTOR_CHOICE}>The Conductor itself</option>
        </optgroup>
      </select>
      <button
        type="button"
        data-testid="add-worker"
        onClick={() => addWorkerFrom(CUSTOM_PRESET.id)}
      >
        + Add worker
      </button>
    </span>
  );
}
