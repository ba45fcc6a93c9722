import { beforeEach, describe, expect, it, vi } from "vitest";
import { KEYS_KEY, bootKeys, keysToStore, loadKeys, setHeader, syncKeys } from "./keyring.ts";
import { SETTINGS_KEY, settingsToStore } from "./persist.ts";
import { useStudio } from "../slices/store.ts";

/** A Storage stand-in with what keyring and persist use. */
function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

const KEY = "sk-keyring-0123456789";
const initial = useStudio.getState();
beforeEach(() => useStudio.setState(initial, true));

describe("keyring", () => {
  it("reads no opt-in and no keys when nothing is stored", () => {
    expect(loadKeys(memoryStorage())).toEqual({ keys: {}, keyOrigins: {}, rememberKeys: false });
  });

  it("reads remembered keys, with the origin each was entered for, as the opt-in", () => {
    const storage = memoryStorage({
      [KEYS_KEY]: keysToStore({ w0: KEY }, { w0: "https://api.openai.com" }),
    });
    expect(loadKeys(storage)).toEqual({
      keys: { w0: KEY },
      keyOrigins: { w0: "https://api.openai.com" },
      rememberKeys: true,
    });
  });

  it("reads a version-1 entry's keys as bound to no origin, so none is sent before a confirmation", () => {
    const storage = memoryStorage({
      [KEYS_KEY]: JSON.stringify({ version: 1, keys: { w0: KEY } }),
    });
    expect(loadKeys(storage)).toEqual({ keys: { w0: KEY }, keyOrigins: {}, rememberKeys: true });
  });

  it("keeps a version-2 entry's empty origin as written (only a migrated version-1 key has none)", () => {
    const storage = memoryStorage({
      [KEYS_KEY]: JSON.stringify({ version: 2, keys: { w0: { key: KEY, origin: "" } } }),
    });
    expect(loadKeys(storage)).toEqual({
      keys: { w0: KEY },
      keyOrigins: { w0: "" },
      rememberKeys: true,
    });
  });

  it.each([
    `{"keys":{"w0":"${KEY}"`,
    "[]",
    JSON.stringify({ version: 2, keys: { w0: KEY } }),
    JSON.stringify({ version: 3, keys: {} }),
    JSON.stringify({ version: 1, keys: { w0: 1 }, extra: KEY }),
    JSON.stringify({ version: 1, keys: { w0: { key: KEY, origin: "" } } }),
  ])("ignores an unreadable entry (%s) without printing it", (text) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const storage = memoryStorage({ [KEYS_KEY]: text });
    expect(loadKeys(storage)).toEqual({ keys: {}, keyOrigins: {}, rememberKeys: false });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(warn.mock.calls)).not.toContain(KEY);
  });

  it("stores keys only while opted in", () => {
    const storage = memoryStorage();
    syncKeys({ keys: { w0: KEY }, rememberKeys: false }, storage);
    expect(storage.data.size).toBe(0);
    syncKeys({ keys: { w0: KEY }, rememberKeys: true }, storage);
    expect(storage.data.get(KEYS_KEY)).toContain(KEY);
    syncKeys({ keys: { w0: KEY }, rememberKeys: false }, storage);
    expect(storage.data.has(KEYS_KEY)).toBe(false);
  });

  it("keeps storage in step with the store after boot, and forgetting removes everything", () => {
    const storage = memoryStorage();
    bootKeys(storage);
    useStudio.getState().setKey("w0", KEY);
    expect(storage.data.has(KEYS_KEY)).toBe(false);
    useStudio.getState().setRememberKeys(true);
    expect(storage.data.get(KEYS_KEY)).toContain(KEY);
    useStudio.getState().setKey("w1", "sk-second-key-000");
    expect(storage.data.get(KEYS_KEY)).toContain("sk-second-key-000");
    useStudio.getState().forgetAllKeys();
    expect(useStudio.getState().keys).toEqual({});
    expect(useStudio.getState().rememberKeys).toBe(false);
    expect(storage.data.has(KEYS_KEY)).toBe(false);
  });

  it("restores remembered keys on boot", () => {
    const storage = memoryStorage({ [KEYS_KEY]: keysToStore({ w0: KEY }) });
    bootKeys(storage);
    expect(useStudio.getState().keys).toEqual({ w0: KEY });
    expect(useStudio.getState().rememberKeys).toBe(true);
  });

  it("never puts a key into the stored settings", () => {
    useStudio.getState().setKey("w0", KEY);
    useStudio.getState().setRememberKeys(true);
    expect(settingsToStore(useStudio.getState())).not.toContain(KEY);
    expect(SETTINGS_KEY).not.toBe(KEYS_KEY);
  });

  it("keeps secret header values with the keys, under the same opt-in, and never in the settings", () => {
    const storage = memoryStorage();
    bootKeys(storage);
    useStudio.setState({
      pool: [
        {
          id: "w0",
          name: "Azure",
          kind: "openai",
          baseURL: "https://x.openai.azure.com/v1",
          model: "m",
          temperature: 0.2,
          maxTokens: 100,
          prefill: false,
        },
      ],
    });
    setHeader("w0", "Ocp-Apim-Subscription-Key", "azure-secret-0000", true);
    expect(storage.data.has(KEYS_KEY)).toBe(false);
    useStudio.getState().setRememberKeys(true);
    expect(storage.data.get(KEYS_KEY)).toContain("azure-secret-0000");
    expect(storage.data.get(KEYS_KEY)).toContain("https://x.openai.azure.com");
    const settings = settingsToStore(useStudio.getState());
    expect(settings).not.toContain("azure-secret-0000");
    expect(settings).toContain('"Ocp-Apim-Subscription-Key":"[redacted]"');
    useStudio.getState().forgetAllKeys();
    expect(storage.data.has(KEYS_KEY)).toBe(false);
  });
});
