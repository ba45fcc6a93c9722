import { useRef } from "react";
import { download, exportText, openFile } from "../state/files.ts";
import { useStudio } from "../state/store.ts";
import { useUi } from "../state/ui.ts";
import { SettingsDialog } from "./panels/SettingsDialog.tsx";

export type Theme = "light" | "dark";

/** Title, import and export, settings and the theme toggle. */
export function Header({ theme, onToggleTheme }: { theme: Theme; onToggleTheme: () => void }) {
  const settingsOpen = useUi((s) => s.settingsOpen);
  const { openSettings, closeSettings } = useUi.getState();
  const fileInput = useRef<HTMLInputElement>(null);
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
        <button type="button" data-testid="import" onClick={() => fileInput.current?.click()}>
          Import…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="application/json,.json"
          data-testid="import-input"
          hidden
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = "";
            if (!file) return;
            void openFile(file).then((message) => {
              if (message)
                useStudio.getState().setNotice(`Could not open ${file.name}: ${message}`);
            });
          }}
        />
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
