/**
 * `/?sandbox-test`: exposes the browser code sandbox to Playwright as `window.__codeSandbox` and
 * shows its runtime note in a corner. Loaded only with that query (a dynamic import in main.tsx);
 * it scores only what the caller passes, so it is harmless in production. `escape` makes a second
 * sandbox whose frames run given JavaScript in their worker's global scope, as a program that
 * escaped Python would (e2e/code-sandbox-escape.spec.ts): it runs only inside a sandbox frame.
 */
import { createRoot } from "react-dom/client";
import { PYODIDE_ASSETS } from "virtual:pyodide-assets";
import { createBrowserSandbox } from "../../engine/eval/code/browser-sandbox.ts";
import { createCodeScorer } from "../../engine/eval/code/scorer.ts";
import type { RunResult, Sandbox, SandboxStatus } from "../../engine/eval/code/pool.ts";
import type { RunLimits, ScoreResult } from "../../engine/eval/code/sandbox-types.ts";
import { DEFAULT_LIMITS } from "../../engine/eval/code/sandbox-types.ts";
import { CodeRuntimeNote } from "./CodeRuntimeNote.tsx";

export interface CodeSandboxHook {
  score(answer: string, tests: unknown, limits?: Partial<RunLimits>): Promise<ScoreResult>;
  /** Runs one program on stdin and returns its outcome as the sandbox reports it. */
  run(code: string, stdin?: string): Promise<RunResult>;
  warm(): Promise<void>;
  /** The sandbox's status (the bench reads its workers' start times). */
  status(): SandboxStatus;
  /** From now on `scoreEscaped` scores in a sandbox whose workers first run `source`. */
  escape(source: string): void;
  scoreEscaped(answer: string, tests: unknown, limits?: Partial<RunLimits>): Promise<ScoreResult>;
  /** Messages of `{ type: "escape-report" }` the escaped code posted, as the page received them. */
  reports(): unknown[];
}

declare global {
  interface Window {
    __codeSandbox?: CodeSandboxHook;
  }
}

export function mountSandboxTestHook(): void {
  // Tests wait on verdicts, not on start-up time: a loaded CI machine may take long to start one.
  const startTimeoutMs = 240_000;
  const sandbox = createBrowserSandbox({ startTimeoutMs });
  let escaped: Sandbox | null = null;
  const reports: unknown[] = [];
  const observe = (data: unknown) => {
    if ((data as { type?: unknown } | null)?.type === "escape-report") reports.push(data);
  };
  window.__codeSandbox = {
    escape(source) {
      escaped?.dispose();
      escaped = createBrowserSandbox({ escape: source, observe, startTimeoutMs });
    },
    scoreEscaped: (answer, tests, limits) =>
      escaped
        ? createCodeScorer({ sandbox: escaped, limits }).score(
            answer,
            { question: "", tests },
            new AbortController().signal,
          )
        : Promise.reject(new Error("call escape(source) first")),
    reports: () => reports,
    score: (answer, tests, limits) =>
      createCodeScorer({ sandbox, limits }).score(
        answer,
        { question: "", tests },
        new AbortController().signal,
      ),
    run: (code, stdin = "") => sandbox.run({ mode: "stdio", code, stdin }, DEFAULT_LIMITS),
    warm: () => sandbox.warm(),
    status: () => sandbox.status(),
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
