// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WebGpuProbe } from "../../engine/llm/webllm/probe.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { useStudio } from "../../state/slices/store.ts";
import { inBrowserWorker } from "../../test-support/state/slices/pool-workers.ts";
import { InBrowserWorkerNote } from "./InBrowserWorkerNote.tsx";

const worker: Worker = inBrowserWorker(512);

const probe = (ok: boolean): WebGpuProbe => ({
  ok,
  f16: true,
  software: false,
  adapterName: ok ? "Test GPU" : "",
  maxBufferMB: 1024,
  maxStorageBindingMB: 1024,
  summary: ok ? "WebGPU works." : "This browser has no WebGPU.",
  warnings: [],
});

const note = () => screen.getByTestId("inbrowser-worker-note");
const set = (patch: Parameters<ReturnType<typeof useStudio.getState>["setInBrowser"]>[0]) =>
  act(() => useStudio.getState().setInBrowser(patch));

beforeEach(() => set({ ibStatus: "idle", ibModelId: null, probe: null, cachedModels: [] }));
afterEach(cleanup);

describe("InBrowserWorkerNote", () => {
  it("says no model is loaded, offers Load where WebGPU works, and confirms the download first", () => {
    set({ probe: probe(true) });
    render(<InBrowserWorkerNote worker={worker} />);
    expect(note().dataset.loaded).toBe("false");
    expect(note().textContent).toContain("No in-browser model is loaded");
    fireEvent.click(screen.getByTestId("inbrowser-worker-load"));
    expect(screen.getByTestId("inbrowser-worker-confirm").textContent).toContain("downloads about");
    fireEvent.click(screen.getByRole("button", { name: "Not now" }));
    expect(screen.queryByTestId("inbrowser-worker-confirm")).toBeNull();
  });

  it("offers no Load without WebGPU, and says why", () => {
    set({ probe: probe(false) });
    render(<InBrowserWorkerNote worker={worker} />);
    expect(screen.queryByTestId("inbrowser-worker-load")).toBeNull();
    expect(note().textContent).toContain("This browser has no WebGPU.");
  });

  it("names the loaded model, and says what becomes of the prefill", () => {
    set({ probe: probe(true), ibStatus: "ready", ibModelId: "Qwen2.5-1.5B-Instruct-q4f16_1-MLC" });
    render(<InBrowserWorkerNote worker={{ ...worker, prefill: true }} />);
    expect(note().dataset.loaded).toBe("true");
    expect(note().textContent).toContain("Runs on Qwen2.5-1.5B-Instruct-q4f16_1-MLC");
    expect(screen.queryByTestId("inbrowser-worker-load")).toBeNull();
    expect(screen.getByTestId("inbrowser-prefill-note").textContent).toContain(
      "cannot continue an assistant message",
    );
  });
});
