import { PoolEditor } from "../pool/PoolEditor.tsx";
import { ConductorSettings } from "./ConductorSettings.tsx";

/** The Conductor's endpoint and the worker pool (keys in memory unless the user opts in). */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  return (
    <div className="dialog-backdrop" role="presentation" onClick={onClose}>
      <div
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-label="Settings"
        data-testid="settings"
        onClick={(e) => e.stopPropagation()}
      >
        <header className="dialog-head">
          <h2>Settings</h2>
          <button type="button" onClick={onClose} data-testid="settings-close">
            Done
          </button>
        </header>
        <ConductorSettings />
        <PoolEditor />
      </div>
    </div>
  );
}
