import { BROWSER_STATUS_LABEL, presetById } from "../../engine/pool/presets.ts";

/** What is known of calling this provider from a web page, and where that knowledge comes from. */
export function BrowserStatusNote({ provider }: { provider: string | undefined }) {
  const preset = presetById(provider);
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
