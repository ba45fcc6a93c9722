import { useStudio } from "../state/slices/store.ts";

/** Says once, after a load, which stored settings could not be read and were reset. */
export function SettingsReport() {
  const report = useStudio((s) => s.settingsReport);
  if (!report) return null;
  return (
    <div className="file-offer" role="alert" data-testid="settings-report">
      <span>{report}</span>
      <button type="button" onClick={() => useStudio.getState().dismissSettingsReport()}>
        Dismiss
      </button>
    </div>
  );
}
