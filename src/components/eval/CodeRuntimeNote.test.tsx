// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { Sandbox, SandboxStatus } from "../../engine/eval/code/pool.ts";
import { IDLE_STATUS } from "../../engine/eval/code/pool.ts";
import { CodeRuntimeNote } from "./CodeRuntimeNote.tsx";

/** A sandbox whose status the test sets. */
function scriptedSandbox() {
  let status: SandboxStatus = IDLE_STATUS;
  const subs = new Set<(s: SandboxStatus) => void>();
  const sandbox: Sandbox = {
    run: () => Promise.reject(new Error("not used")),
    open: () => Promise.reject(new Error("not used")),
    warm: () => Promise.resolve(),
    status: () => status,
    subscribe: (cb) => {
      subs.add(cb);
      return () => subs.delete(cb);
    },
    dispose: () => undefined,
  };
  const set = (patch: Partial<SandboxStatus>) =>
    act(() => {
      status = { ...status, ...patch };
      for (const cb of subs) cb(status);
    });
  return { sandbox, set };
}

afterEach(cleanup);
const note = () => screen.getByTestId("code-runtime-note");

describe("CodeRuntimeNote", () => {
  it("shows the size before, the download during, and ready after the first start", () => {
    const { sandbox, set } = scriptedSandbox();
    render(<CodeRuntimeNote sandbox={sandbox} sizeBytes={13_500_000} version="314.0.7" />);
    expect(note().textContent).toBe(
      "Python runtime (Pyodide 314.0.7): 13.5 MB, downloaded once when the first code answer is scored.",
    );
    set({ phase: "loading", starts: 1, loaded: 4_500_000, total: 13_500_000 });
    expect(note().dataset.phase).toBe("loading");
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("33");
    expect(note().textContent).toContain("4.5 MB of 13.5 MB");
    set({ phase: "ready", lastLoadMs: 2140 });
    expect(note().textContent).toBe("Python runtime (Pyodide 314.0.7) ready (started in 2.1 s).");
  });

  it("says why the runtime failed to load", () => {
    const { sandbox, set } = scriptedSandbox();
    render(<CodeRuntimeNote sandbox={sandbox} sizeBytes={1} version="314.0.7" />);
    set({ phase: "failed", message: "404 pyodide.asm.wasm" });
    expect(screen.getByRole("alert").textContent).toBe(
      "Python runtime (Pyodide 314.0.7) failed to load: 404 pyodide.asm.wasm",
    );
  });
});
