import { download, exportText, openFile } from "../state/files.ts";
import { useStudio } from "../state/store.ts";
import { useUi } from "../state/ui.ts";
import { SettingsDialog } from "./panels/SettingsDialog.tsx";
import { JsonFileButton } from "./ui/JsonFileButton.tsx";
import { EvaluateButton } from "./eval/EvaluateMount.tsx";

export type Theme = "light" | "dark";

/** Title, import and export, settings and the theme toggle. */
export function Header({ theme, onToggleTheme }: { theme: Theme; onToggleTheme: () => void }) {
  const settingsOpen = useUi((s) => s.settingsOpen);
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
        <JsonFileButton
          testId="import"
          onFile={(file) =>
            void openFile(file).then((message) => {
              if (message)
                useStudio.getState().setNotice(`Could not open ${file.name}: ${message}`);
            })
          }
        >
          Import…
        </JsonFileButton>
        <EvaluateButton />
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
