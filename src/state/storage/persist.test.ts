import { beforeEach, describe, expect, it } from "vitest";
import { bootStudio } from "./boot.ts";
import { SETTINGS_KEY, readSettings, settingsReport, settingsToStore } from "./persist.ts";
import { DEFAULT_CONDUCTOR } from "../slices/settings.ts";
import { useStudio } from "../slices/store.ts";
import { memoryStorage } from "../../test-support/state/studio-state.ts";

const initial = useStudio.getState();
beforeEach(() => useStudio.setState(initial, true));

const worker = (id: string) => ({ id, name: `Worker ${id}`, model: id, baseURL: "http://x/v1" });
const stored = (doc: unknown) => memoryStorage({ [SETTINGS_KEY]: JSON.stringify(doc) });

describe("reading stored settings tolerantly", () => {
  it("keeps every valid field and resets each invalid one alone, naming it", () => {
    const read = readSettings(
      stored({
        pool: [worker("a"), { id: "", name: 3 }, worker("c")],
        conductor: { model: "conductor-7b", rounds: 99, temperature: "hot", namedWorkers: false },
        maxSteps: 0,
        telemetry: { collectorURL: 7, content: true },
      }),
    );
    expect(read.dropped).toEqual([
      "pool[1]",
      "conductor.temperature",
      "conductor.rounds",
      "maxSteps",
      "telemetry.collectorURL",
    ]);
    expect(read.unreadable).toBeNull();
    expect(read.settings.pool?.map((w) => w.id)).toEqual(["a", "c"]);
    expect(read.settings.conductor).toEqual({
      ...DEFAULT_CONDUCTOR,
      model: "conductor-7b",
      namedWorkers: false,
    });
    expect(read.settings.maxSteps).toBeUndefined();
    expect(read.settings.telemetry).toMatchObject({ collectorURL: "", content: true });
    expect(settingsReport(read)).toBe(
      "5 stored settings could not be read and were reset to their defaults: pool[1], conductor.temperature, conductor.rounds, maxSteps, telemetry.collectorURL. Every other setting was kept.",
    );
  });

  it("reads what it wrote, versioned, with nothing dropped; absent fields are no report", () => {
    const s = useStudio.getState();
    const text = settingsToStore({
      ...s,
      pool: [worker("a")].map((w) => ({
        ...w,
        kind: "openai" as const,
        temperature: 0.2,
        maxTokens: 4096,
        prefill: false,
      })),
      maxSteps: 7,
    });
    expect(JSON.parse(text)).toMatchObject({ version: 1 });
    const read = readSettings(memoryStorage({ [SETTINGS_KEY]: text }));
    expect(read).toMatchObject({ dropped: [], unreadable: null, settings: { maxSteps: 7 } });
    expect(settingsReport(read)).toBeNull();
    // Settings from before the version field, and with fields missing, read as version 1.
    const old = readSettings(stored({ conductor: { model: "m" } }));
    expect(old).toMatchObject({ dropped: [], unreadable: null });
    expect(old.settings.conductor?.model).toBe("m");
    expect(old.settings.pool).toBeUndefined();
  });

  it("says why nothing loaded: not JSON, not an object, or written by a newer version", () => {
    const notJson = readSettings(memoryStorage({ [SETTINGS_KEY]: "{pool" }));
    expect(notJson).toMatchObject({ settings: {}, dropped: [] });
    expect(settingsReport(notJson)).toContain("not JSON");
    expect(settingsReport(readSettings(stored([1, 2])))).toContain("not an object");
    const newer = readSettings(stored({ version: 2, pool: [] }));
    expect(newer.settings).toEqual({});
    expect(settingsReport(newer)).toContain("settings version 2; this app reads up to 1");
    expect(readSettings(memoryStorage())).toEqual({ settings: {}, dropped: [], unreadable: null });
  });

  it("a whole section of the wrong type is dropped as that section", () => {
    const read = readSettings(stored({ pool: "none", conductor: 5, telemetry: null }));
    expect(read.dropped).toEqual(["pool", "conductor", "telemetry"]);
    expect(read.settings.conductor).toEqual(DEFAULT_CONDUCTOR);
  });
});

describe("booting with settings that had to drop a field", () => {
  it("shows the report once: the repaired settings are written back at once", () => {
    const storage = stored({ pool: [worker("a")], conductor: { model: "kept", rounds: -1 } });
    bootStudio(storage);
    const s = useStudio.getState();
    expect(s.settingsReport).toContain("conductor.rounds");
    expect(s.conductor.model).toBe("kept");
    expect(s.pool.map((w) => w.id)).toEqual(["a"]);
    // The next load reads the repaired text: nothing more to report, nothing else lost.
    const again = readSettings(storage);
    expect(again.dropped).toEqual([]);
    expect(again.settings.conductor?.model).toBe("kept");
    s.dismissSettingsReport();
    expect(useStudio.getState().settingsReport).toBeNull();
  });

  it("leaves unreadable settings (a newer app's) untouched in storage", () => {
    const text = JSON.stringify({ version: 9, pool: [worker("z")] });
    const storage = memoryStorage({ [SETTINGS_KEY]: text });
    bootStudio(storage);
    expect(useStudio.getState().settingsReport).toContain("version 9");
    expect(storage.getItem(SETTINGS_KEY)).toBe(text);
  });
});
