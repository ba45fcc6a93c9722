import { create } from "zustand";
import type { Sandbox } from "../engine/eval/code/pool.ts";

/**
 * The studio's one Python sandbox for the code scorer. Its module (and Pyodide behind it) is
 * imported only when asked for; creating it starts nothing, the first program fetches Pyodide. It
 * lives as long as the page, so the runtime downloads once and warm interpreters are reused.
 */
export const useCodeSandbox = create<{ sandbox: Sandbox | null }>()(() => ({ sandbox: null }));

let loading: Promise<Sandbox> | null = null;

export function browserCodeSandbox(): Promise<Sandbox> {
  loading ??= import("../engine/eval/code/browser.ts").then(
    (m) => {
      const sandbox = m.createBrowserSandbox();
      useCodeSandbox.setState({ sandbox });
      return sandbox;
    },
    (e: unknown) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}
