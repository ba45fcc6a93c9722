import type { StoreApi } from "zustand";
import { describe, expect, it } from "vitest";
import { DEFAULT_COLUMNS } from "../../engine/eval/dataset/item-schema.ts";
import { createCodeSandboxSlice } from "./codeSandbox.ts";
import { createConnectionSlice } from "./connections.ts";
import { createDocumentSlice } from "./document.ts";
import { createEvalSlice } from "./eval.ts";
import { createEvalDiffSlice } from "./evalDiff.ts";
import { createFileOfferSlice } from "./fileOffer.ts";
import { createHistorySlice } from "./history.ts";
import { createInBrowserSlice } from "./inbrowser.ts";
import { createKeyPromptSlice } from "./keyPrompt.ts";
import { createRunSlice } from "./run.ts";
import { createSettingsSlice } from "./settings.ts";
import type { StudioState } from "./store.ts";
import { useStudio } from "./store.ts";
import { resetStudio } from "../../test-support/state/studio-state.ts";
import { createUiSlice } from "./ui.ts";

const SLICES = {
  settings: createSettingsSlice,
  document: createDocumentSlice,
  run: createRunSlice,
  inbrowser: createInBrowserSlice,
  fileOffer: createFileOfferSlice,
  connections: createConnectionSlice,
  keyPrompt: createKeyPromptSlice,
  ui: createUiSlice,
  history: createHistorySlice,
  eval: createEvalSlice,
  evalDiff: createEvalDiffSlice,
  codeSandbox: createCodeSandboxSlice,
};

describe("the one studio store", () => {
  it("no two slices share a name: spreading them into one store would let one overwrite the other", () => {
    const api = useStudio as unknown as StoreApi<StudioState>;
    const owner = new Map<string, string>();
    const shared: string[] = [];
    for (const [slice, create] of Object.entries(SLICES)) {
      for (const key of Object.keys(create(api.setState, api.getState, api))) {
        const first = owner.get(key);
        if (first) shared.push(`${key}: ${first} and ${slice}`);
        else owner.set(key, slice);
      }
    }
    expect(shared).toEqual([]);
    // Every field of the store comes from one of these slices.
    expect([...owner.keys()].sort()).toEqual(Object.keys(useStudio.getState()).sort());
  });

  it("a group's expansion toggles, and a drawer opened alone closes the other", () => {
    resetStudio();
    const s = useStudio.getState();
    s.toggleGroupExpanded("g1");
    s.toggleGroupExpanded("g2");
    s.toggleGroupExpanded("g1");
    expect([...useStudio.getState().expandedGroups]).toEqual(["g2"]);
    expect(useStudio.getState().drawers).toEqual({ left: true, right: false });
    s.setDrawer("right", true);
    expect(useStudio.getState().drawers).toEqual({ left: true, right: true });
    s.setDrawer("right", true, true);
    expect(useStudio.getState().drawers).toEqual({ left: false, right: true });
    s.setDrawer("left", false, true);
    expect(useStudio.getState().drawers).toEqual({ left: false, right: true });
    s.setDrawer("left", true, true);
    expect(useStudio.getState().drawers).toEqual({ left: true, right: false });
  });

  it("Settings opens and closes; each Tidy up asks the canvas for a fresh layout", () => {
    resetStudio();
    const s = useStudio.getState();
    expect(s.settingsOpen).toBe(false);
    s.openSettings();
    expect(useStudio.getState().settingsOpen).toBe(true);
    s.closeSettings();
    expect(useStudio.getState().settingsOpen).toBe(false);
    const epoch = useStudio.getState().layoutEpoch;
    s.relayout();
    s.relayout();
    expect(useStudio.getState().layoutEpoch).toBe(epoch + 2);
  });

  it("a fresh Evaluate view: closed, nothing loaded or chosen, the response cache on", () => {
    resetStudio();
    const s = useStudio.getState();
    expect(s.evalOpen).toBe(false);
    expect([s.evalResults, s.evalQuestions, s.evalSetup.strategies]).toEqual([[], [], []]);
    expect(s.evalSetup).toMatchObject({
      sourceName: "",
      table: null,
      mapping: DEFAULT_COLUMNS,
      skipBad: false,
      repeats: 1,
      scorer: "",
      judge: "",
      rubric: "",
      maxCost: "",
      cache: true,
      cacheMode: "read-write",
    });
    s.setEvalOpen(true);
    expect(useStudio.getState().evalOpen).toBe(true);
    s.setEvalOpen(false);
    expect(useStudio.getState().evalOpen).toBe(false);
  });

  it("putting the store back restores every slice: the Evaluate view's and History's too", () => {
    resetStudio();
    const s = useStudio.getState();
    s.setEvalOpen(true);
    s.patchEval({ evalOpenItem: { item: "q1", strategy: "moa" }, evalPhase: "finished" });
    s.toggleHistorySelected("r1");
    s.openSettings();
    resetStudio();
    const after = useStudio.getState();
    expect(after.evalOpen).toBe(false);
    expect(after.evalOpenItem).toBeNull();
    expect(after.evalPhase).toBe("idle");
    expect(after.historySelected).toEqual([]);
    expect(after.settingsOpen).toBe(false);
  });
});
