import { useRef } from "react";
import { PoolEditor } from "../pool/PoolEditor.tsx";
import { useDialogFocus } from "../ui/useDialogFocus.ts";
import { ConductorSettings } from "./ConductorSettings.tsx";
import { TelemetrySettings } from "../telemetry/TelemetrySettings.tsx";

/** The Conductor's endpoint and the worker pool (keys in memory unless the user opts in). */
export default function SettingsDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useDialogFocus(ref, onClose, "[data-testid=open-settings]");
  return (
    <div className="dialog-backdrop" role="presentation" onClick={onClose}>
      <div
        ref={ref}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="settings-title"
        tabIndex={-1}
        data-testid="settings"
        onClick={(e) => e.stopPropagation()}
      >
        <header className="dialog-head">
          <h2 id="settings-title">Settings</h2>
          <button type="button" onClick={onClose} data-testid="settings-close">
            Done
          </button>
        </header>
        <ConductorSettings />
        <PoolEditor />
        <TelemetrySettings />
      </div>
    </div>
  );
}

