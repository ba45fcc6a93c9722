import { ReactFlowProvider } from "@xyflow/react";
import { useCallback, useEffect, useState } from "react";
import { Canvas } from "./canvas/Canvas.tsx";
import { EvaluateMount } from "./eval/EvaluateMount.tsx";
import { ExampleBanner } from "./examples/ExampleBanner.tsx";
import type { Theme } from "./Header.tsx";
import { FileOfferBar } from "./files/FileOfferBar.tsx";
import { Header } from "./Header.tsx";
import { KeyPrompt } from "./KeyPrompt.tsx";
import { SettingsReport } from "./SettingsReport.tsx";
import { AnswerPanel } from "./panels/AnswerPanel.tsx";
import { ConductorPanel } from "./panels/ConductorPanel.tsx";
import { ConductorStatus } from "./panels/ConductorStatus.tsx";
import { Inspector } from "./panels/Inspector.tsx";
import { QuestionBox } from "./panels/QuestionBox.tsx";
import { RunBar } from "./panels/RunBar.tsx";
import { Splitter } from "./ui/Splitter.tsx";
import { deferred, whenIdle } from "./ui/deferred.tsx";
import { useShortcuts } from "./useShortcuts.ts";
import { useLayoutMode } from "./useLayoutMode.ts";
import { useStudio } from "../state/slices/store.ts";
import { useDrawerFollowsWork } from "./useDrawerFollowsWork.ts";

// Not needed for the first paint: history (virtual list) and compare (the diff library) load when
// opened; history's code is also fetched once the page is idle.
const History = deferred(
  () => import("./history/HistoryPanel.tsx").then((m) => m.HistoryPanel),
  <p className="muted" role="status">
    Loading history…
  </p>,
);
const Compare = deferred(() => import("./history/CompareView.tsx").then((m) => m.CompareView));

const THEME_KEY = "conductor-studio.theme";

function initialTheme(): Theme {
  const stored = localStorage.getItem(THEME_KEY);
  if (stored === "light" || stored === "dark") return stored;
  return window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));
/** The side panels' width limits, in pixels (the drag and the splitter's keyboard share them). */
const LEFT = { min: 240, max: 560 };
const RIGHT = { min: 280, max: 640 };

/** The studio: question and Conductor on the left, the graph in the middle, inspector and answer right. */
export function App() {
  useEffect(() => whenIdle(History.preload), []);
  const [theme, setTheme] = useState<Theme>(initialTheme);
  const [left, setLeft] = useState(320);
  const [right, setRight] = useState(360);
  const historyOpen = useStudio((s) => s.historyOpen);
  const compare = useStudio((s) => s.historyCompare);
  useShortcuts();
  const mode = useLayoutMode();
  const drawers = useStudio((s) => s.drawers);
  useDrawerFollowsWork(mode);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const toggleTheme = useCallback(() => {
    setTheme((t) => {
      const next = t === "dark" ? "light" : "dark";
      localStorage.setItem(THEME_KEY, next);
      return next;
    });
  }, []);
  const resizeLeft = useCallback(
    (dx: number) => setLeft((w) => clamp(w + dx, LEFT.min, LEFT.max)),
    [],
  );
  const resizeRight = useCallback(
    (dx: number) => setRight((w) => clamp(w - dx, RIGHT.min, RIGHT.max)),
    [],
  );
  const leftColumn = mode !== "narrow";
  const rightColumn = mode === "wide";
  const columns = rightColumn
    ? `${left}px 6px 1fr 6px ${right}px`
    : leftColumn
      ? `${left}px 6px 1fr`
      : "1fr";
  const rightShown = rightColumn || drawers.right || historyOpen;
  const leftShown = leftColumn || drawers.left;
  return (
    <ReactFlowProvider>
      <div
        className={`studio layout-${mode}`}
        data-testid="app"
        style={{ gridTemplateColumns: columns }}
      >
        <Header theme={theme} onToggleTheme={toggleTheme} />
        <aside
          className={`column left${leftColumn ? "" : " drawer"}`}
          hidden={!leftShown}
          id="left-panel"
          data-testid="left-panel"
        >
          <ConductorStatus />
          <QuestionBox />
          <ConductorPanel />
          <AnswerPanel />
        </aside>
        {leftColumn && (
          <Splitter onResize={resizeLeft} label="Resize the left panel" value={left} {...LEFT} />
        )}
        <main className="column center">
          <SettingsReport />
          <FileOfferBar />
          <ExampleBanner />
          <RunBar />
          <Canvas />
        </main>
        {rightColumn && (
          <Splitter
            onResize={resizeRight}
            label="Resize the right panel"
            value={right}
            {...RIGHT}
          />
        )}
        <aside
          className={`column right${rightColumn ? "" : " drawer"}`}
          hidden={!rightShown}
          id="right-panel"
          data-testid="right-panel"
        >
          {historyOpen ? <History.Component /> : <Inspector />}
        </aside>
        {compare && <Compare.Component pair={compare} />}
        <EvaluateMount />
        <KeyPrompt />
      </div>
    </ReactFlowProvider>
  );
}
