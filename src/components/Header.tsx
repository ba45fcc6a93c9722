import { useEffect } from "react";
import { download, exportText } from "../state/run/files.ts";
import type { StudioState } from "../state/slices/store.ts";
import { setHistoryOpen } from "../state/run/historyController.ts";
import { useStudio } from "../state/slices/store.ts";
import { openUserFile } from "./files/openFile.ts";
import { JsonFileButton } from "./ui/JsonFileButton.tsx";
import { deferred, whenIdle } from "./ui/deferred.tsx";
import { EvaluateButton } from "./eval/EvaluateMount.tsx";
import { TraceActions } from "./telemetry/TraceActions.tsx";
import { PanelToggles } from "./PanelToggles.tsx";

// Not needed for the first paint: Settings' code loads once the page is idle, or when first opened.
const Settings = deferred(() => import("./panels/SettingsDialog.tsx").then((m) => m.default));

/** Whether there is a run to export (a run that started steps), and a workflow (any step). */
const selectHasRun = (s: StudioState) =>
  s.record.status !== "draft" && s.record.rounds.some((r) => r.steps.length > 0);
const selectHasSteps = (s: StudioState) => s.history.present.steps.length > 0;

export type Theme = "light" | "dark";

/** Title, import and export, settings and the theme toggle. */
export function Header({ theme, onToggleTheme }: { theme: Theme; onToggleTheme: () => void }) {
  const settingsOpen = useStudio((s) => s.settingsOpen);
  useEffect(() => whenIdle(Settings.preload), []);
  const hasRun = useStudio(selectHasRun);
  const hasSteps = useStudio(selectHasSteps);
  const historyOpen = useStudio((s) => s.historyOpen);
  const { openSettings, closeSettings } = useStudio.getState();
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
      <div className="row wrap">
        <PanelToggles />
        <button
          type="button"
          data-testid="export-run"
          disabled={!hasRun && !hasSteps}
          title={hasRun ? undefined : "No run yet: this exports the workflow"}
          onClick={() => save("run")}
        >
          Export run
        </button>
        <button
          type="button"
          data-testid="export-workflow"
          disabled={!hasSteps}
          onClick={() => save("workflow")}
        >
          Export workflow
        </button>
        <TraceActions
          testId="run-otel"
          label="Export trace"
          sendLabel="Send trace"
          disabled={!hasRun}
          load={() => [useStudio.getState().record]}
        />
        <JsonFileButton testId="import" onFile={openUserFile}>
          Import…
        </JsonFileButton>
        <EvaluateButton />
        <button
          type="button"
          data-testid="open-history"
          aria-pressed={historyOpen}
          onClick={() => setHistoryOpen(!historyOpen)}
        >
          History
        </button>
        <button type="button" data-testid="open-settings" onClick={openSettings}>
          Settings
        </button>
        {/* Names the current theme; its accessible name is its visible label. */}
        <button
          type="button"
          data-testid="theme-toggle"
          data-theme={theme}
          onClick={onToggleTheme}
          title={`Switch to the ${theme === "dark" ? "light" : "dark"} theme`}
        >
          {theme === "dark" ? "Theme: dark" : "Theme: light"}
        </button>
      </div>
      {settingsOpen && <Settings.Component onClose={closeSettings} />}
    </header>
  );
}
