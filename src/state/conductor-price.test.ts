import { beforeEach, describe, expect, it } from "vitest";
import { conductorConfigOf } from "./run/backends.ts";
import { workflowRecord } from "./run/files.ts";
import { SETTINGS_KEY, loadSettings, settingsToStore } from "./storage/persist.ts";
import { DEFAULT_CONDUCTOR } from "./slices/settings.ts";
import { useStudio } from "./slices/store.ts";

const initial = useStudio.getState();
beforeEach(() => useStudio.setState(initial, true));

const price = { input: 0.5, output: 4 };
const remote = { ...DEFAULT_CONDUCTOR, backend: "remote" as const, price };

describe("the Conductor's price", () => {
  it("goes with a remote Conductor's config, which the run record and evaluations keep", () => {
    useStudio.getState().setConductor({ backend: "remote", price });
    const s = useStudio.getState();
    expect(conductorConfigOf(s)).toMatchObject({ kind: "openai", price });
    expect(workflowRecord(s).conductor?.price).toEqual(price);
  });

  it("is left out for the in-browser Conductor, whose plans are free", () => {
    const s = useStudio.getState();
    const config = conductorConfigOf({ ...s, conductor: { ...remote, backend: "webllm" } });
    expect(config.kind).toBe("webllm");
    expect(config.price).toBeUndefined();
  });

  it("is absent until the user enters one", () => {
    const s = useStudio.getState();
    expect(
      conductorConfigOf({ ...s, conductor: { ...remote, price: undefined } }),
    ).not.toHaveProperty("price");
  });

  it("survives a reload, and settings saved before it existed still load", () => {
    const s = useStudio.getState();
    const stored = settingsToStore({ ...s, conductor: remote });
    expect(loadSettings({ getItem: () => stored }).conductor?.price).toEqual(price);

    const older = JSON.stringify({
      pool: [],
      conductor: { backend: "remote", baseURL: "http://x/v1", model: "conductor-7b" },
    });
    const loaded = loadSettings({ getItem: (k) => (k === SETTINGS_KEY ? older : null) });
    expect(loaded.conductor).toMatchObject({ backend: "remote", model: "conductor-7b" });
    expect(loaded.conductor?.price).toBeUndefined();
  });

  it("drops a stored price that does not read, keeping the other settings", () => {
    const bad = JSON.stringify({
      pool: [],
      conductor: { model: "conductor-7b", price: { input: -1, output: "1" } },
    });
    const loaded = loadSettings({ getItem: () => bad });
    expect(loaded.conductor?.model).toBe("conductor-7b");
    expect(loaded.conductor?.price).toBeUndefined();
  });
});
