/**
 * `/?sandbox-test`: exposes the browser code sandbox to Playwright as `window.__codeSandbox` and
 * shows its runtime note in a corner. Loaded only with that query (a dynamic import in main.tsx);
 * it scores only what the caller passes, so it is harmless in production.
 */
import { createRoot } from "react-dom/client";
import { PYODIDE_ASSETS } from "virtual:pyodide-assets";
import { createBrowserSandbox } from "../../engine/eval/code/browser.ts";
import { createCodeScorer } from "../../engine/eval/code/scorer.ts";
import type { RunResult } from "../../engine/eval/code/pool.ts";
import type { RunLimits, ScoreResult } from "../../engine/eval/code/types.ts";
import { DEFAULT_LIMITS } from "../../engine/eval/code/types.ts";
import { CodeRuntimeNote } from "./CodeRuntimeNote.tsx";

export interface CodeSandboxHook {
  score(answer: string, tests: unknown, limits?: Partial<RunLimits>): Promise<ScoreResult>;
  /** Runs one program on stdin and returns its outcome as the sandbox reports it. */
  run(code: string, stdin?: string): Promise<RunResult>;
  warm(): Promise<void>;
}

declare global {
  interface Window {
    __codeSandbox?: CodeSandboxHook;
  }
}

export function mountSandboxTestHook(): void {
  const sandbox = createBrowserSandbox();
  window.__codeSandbox = {
    score: (answer, tests, limits) =>
      createCodeScorer({ sandbox, limits }).score(
        answer,
        { question: "", tests },
        new AbortController().signal,
      ),
    run: (code, stdin = "") => sandbox.run({ mode: "stdio", code, stdin }, DEFAULT_LIMITS),
    warm: () => sandbox.warm(),
  };
  const host = document.createElement("div");
  host.setAttribute("style", "position:fixed;right:12px;bottom:12px;width:320px;z-index:1000;");
  host.className = "panel";
  document.body.appendChild(host);
  createRoot(host).render(
    <CodeRuntimeNote
      sandbox={sandbox}
      sizeBytes={PYODIDE_ASSETS.totalBytes}
      version={PYODIDE_ASSETS.version}
    />,
  );
}
