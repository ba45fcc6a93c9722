import { describe, expect, it } from "vitest";
import { conductorConfigOf } from "./run/backends.ts";
import { loadSettings, settingsToStore } from "./storage/persist.ts";
import { DEFAULT_CONDUCTOR, planGrammarOf } from "./slices/settings.ts";
import { useStudio } from "./slices/store.ts";

describe("plan grammar settings", () => {
  it("is on by default in the browser, and off there when turned off", () => {
    expect(planGrammarOf(DEFAULT_CONDUCTOR)).toBe("webllm");
    expect(planGrammarOf({ ...DEFAULT_CONDUCTOR, webllmGrammar: false })).toBe("off");
  });

  it("is chosen per remote endpoint, off for an endpoint never set", () => {
    const c = {
      ...DEFAULT_CONDUCTOR,
      backend: "remote" as const,
      baseURL: "http://a:8000/v1",
      remoteGrammar: { "http://a:8000/v1": "sglang" as const },
    };
    expect(planGrammarOf(c)).toBe("sglang");
    expect(planGrammarOf({ ...c, baseURL: " http://a:8000/v1 " })).toBe("sglang");
    expect(planGrammarOf({ ...c, baseURL: "http://b:8000/v1" })).toBe("off");
  });

  it("reaches the Conductor config the planner reads, and survives a reload", () => {
    const s = useStudio.getState();
    const conductor = { ...DEFAULT_CONDUCTOR, webllmGrammar: false, webllmContextWindow: 16_384 };
    expect(conductorConfigOf({ ...s, conductor }).planGrammar).toBe("off");
    const stored = settingsToStore({ ...s, conductor });
    const loaded = loadSettings({ getItem: () => stored });
    expect(loaded.conductor).toMatchObject({ webllmGrammar: false, webllmContextWindow: 16_384 });
  });
});
