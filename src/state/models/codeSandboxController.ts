// The studio's Python sandbox for the code scorer, made on first use.
import type { Sandbox } from "../../engine/eval/code/pool.ts";
import { useStudio } from "../slices/store.ts";

let loading: Promise<Sandbox> | null = null;

/**
 * The studio's one Python sandbox for the code scorer. Its module (and Pyodide behind it) is
 * imported only when asked for; creating it starts nothing, the first program fetches Pyodide. It
 * lives as long as the page, so the runtime downloads once and warm interpreters are reused.
 */
export function browserCodeSandbox(): Promise<Sandbox> {
  loading ??= import("../../engine/eval/code/browser-sandbox.ts").then(
    (m) => {
      const codeSandbox = m.createBrowserSandbox();
      useStudio.setState({ codeSandbox });
      return codeSandbox;
    },
    (e: unknown) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}
