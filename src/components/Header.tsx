import { download, exportText } from "../state/files.ts";
import { useHistory } from "../state/history.ts";
import { importFiles } from "../state/imports.ts";
import { useStudio } from "../state/store.ts";
import { useUi } from "../state/ui.ts";
import { SettingsDialog } from "./panels/SettingsDialog.tsx";
import { JsonFileButton } from "./ui/JsonFileButton.tsx";

export type Theme = "light" | "dark";

/** Title, import and export, settings and the theme toggle. */
export function Header({ theme, onToggleTheme }: { theme: Theme; onToggleTheme: () => void }) {
  const settingsOpen = useUi((s) => s.settingsOpen);
  const historyOpen = useHistory((s) => s.open);
  const { openSettings, closeSettings } = useUi.getState();
  const save = (what: "run" | "workflow") => {
    const s = useStudio.getState();
    download(
      exportText(s, what),
      `conductor-${what}-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-")}.json`,
    );
  };
  return (
    <header className="app-header">
      <h1>Conductor Studio</h1>
      <div className="row">
        <button type="button" data-testid="export-run" onClick={() => save("run")}>
          Export run
        </button>
        <button type="button" data-testid="export-workflow" onClick={() => save("workflow")}>
          Export workflow
        </button>
        <JsonFileButton testId="import" onFile={(file) => void importFiles([file])}>
          Import…
        </JsonFileButton>
        <button
          type="button"
          data-testid="open-history"
          aria-pressed={historyOpen}
          onClick={() => useHistory.getState().setOpen(!historyOpen)}
        >
          History
        </button>
        <button type="button" data-testid="open-settings" onClick={openSettings}>
          Settings
        </button>
        <button
          type="button"
          data-testid="theme-toggle"
          onClick={onToggleTheme}
          aria-label="Toggle theme"
        >
          {theme === "dark" ? "☀ Light" : "☾ Dark"}
        </button>
      </div>
      {settingsOpen && <SettingsDialog onClose={closeSettings} />}
    </header>
  );
}
