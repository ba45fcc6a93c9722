import { BROWSER_STATUS_LABEL, presetById } from "../../engine/pool/presets.ts";
import { useStudio } from "../../state/slices/store.ts";

/**
 * What is known of calling this provider from a web page, and where that knowledge comes from;
 * after a successful "Test connection", that it works from this browser.
 */
export function BrowserStatusNote({
  provider,
  workerId,
}: {
  provider: string | undefined;
  workerId?: string;
}) {
  const preset = presetById(provider);
  const tested = useStudio((s) => (workerId ? s.testedWorkers.has(workerId) : false));
  if (tested)
    return (
      <div className="span2 browser-status small" data-testid="browser-status" data-status="tested">
        <span className="status-works">Works from this browser</span>
        {" · "}
        <span className="muted">Test connection succeeded from this page.</span>
      </div>
    );
  if (!preset) return null;
  return (
    <div
      className="span2 browser-status small"
      data-testid="browser-status"
      data-status={preset.browser}
    >
      <span className={`status-${preset.browser}`}>{BROWSER_STATUS_LABEL[preset.browser]}</span>
      {" · "}
      <span className="muted">{preset.browserNote}</span>
      {preset.enableBrowser && (
        <div data-testid="enable-browser">
          <strong>To enable:</strong> {preset.enableBrowser}
        </div>
      )}
    </div>
  );
}
