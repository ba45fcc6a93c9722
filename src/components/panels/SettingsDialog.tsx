import { PoolEditor } from "../pool/PoolEditor.tsx";
import { CLOSING_BACKDROP, Modal } from "../ui/Modal.tsx";
import { ConductorSettings } from "./ConductorSettings.tsx";
import { TelemetrySettings } from "../telemetry/TelemetrySettings.tsx";

/** The Conductor's endpoint and the worker pool (keys in memory unless the user opts in). */
export default function SettingsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal
      className="dialog"
      testId="settings"
      onClose={onClose}
      labelledBy="settings-title"
      fallback="[data-testid=open-settings]"
      backdrop={CLOSING_BACKDROP}
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
    </Modal>
  );
}
