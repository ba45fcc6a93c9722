import { describe, expect, it } from "vitest";
import type { Worker } from "../schema/worker.ts";
import { paperPool } from "./paper.ts";
import { POOL_FORMAT, exportPool, importPool } from "./transfer.ts";

const KEY = "sk-secret-pool-0123456789";

const worker: Worker = {
  id: "w0",
  name: "Claude",
  kind: "openai",
  provider: "anthropic",
  baseURL: "https://api.anthropic.com/v1",
  model: "claude-sonnet-4-20250514",
  temperature: 0.2,
  maxTokens: 4096,
  price: { input: 3, output: 15 },
  note: "careful checker",
  headers: { "anthropic-dangerous-direct-browser-access": "true", "x-api-key": KEY },
  prefill: false,
};

describe("pool export", () => {
  it("writes a versioned envelope with two-space indent and no key", () => {
    const text = exportPool([worker], "2026-01-01T00:00:00.000Z");
    expect(text).not.toContain(KEY);
    expect(text).toContain('\n  "format": "conductor-studio/pool"');
    expect(JSON.parse(text)).toMatchObject({
      format: POOL_FORMAT,
      version: 1,
      exportedAt: "2026-01-01T00:00:00.000Z",
      workers: [
        {
          id: "w0",
          headers: {
            "anthropic-dangerous-direct-browser-access": "true",
            "x-api-key": "[redacted]",
          },
          plainHeaders: ["anthropic-dangerous-direct-browser-access"],
        },
      ],
    });
  });

  it("drops any field the schema does not know, such as a key put on the object", () => {
    const smuggled = { ...worker, apiKey: KEY, key: KEY } as Worker;
    expect(exportPool([smuggled])).not.toContain(KEY);
  });

  it("round-trips the paper pool unchanged", () => {
    const pool = paperPool();
    const back = importPool(exportPool(pool));
    expect(back.ok && back.workers).toEqual(pool);
  });
});

describe("pool import", () => {
  const envelope = (workers: unknown[], extra: Record<string, unknown> = {}) =>
    JSON.stringify({ format: POOL_FORMAT, version: 1, workers, ...extra });

  it.each([
    ["not JSON", "{", "bad_json"],
    [
      "another format",
      JSON.stringify({ format: "conductor-studio/run", version: 1 }),
      "bad_format",
    ],
    ["a bare array", "[]", "bad_format"],
    [
      "a newer version",
      JSON.stringify({ format: POOL_FORMAT, version: 2, workers: [] }),
      "newer_version",
    ],
    [
      "a version that is not an integer",
      JSON.stringify({ format: POOL_FORMAT, version: "1" }),
      "invalid_file",
    ],
    ["a worker with a key field", envelope([{ ...worker, apiKey: KEY }]), "invalid_file"],
    ["a worker without a name", envelope([{ id: "a" }]), "invalid_file"],
    ["a temperature out of range", envelope([{ ...worker, temperature: 9 }]), "invalid_file"],
    ["duplicate ids", envelope([worker, { ...worker, name: "Other" }]), "invalid_file"],
    ["an unknown top-level field", envelope([], { keys: { w0: KEY } }), "invalid_file"],
  ])("refuses %s with a coded failure", (_what, text, code) => {
    const result = importPool(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe(code);
      expect(result.message).not.toContain(KEY);
    }
  });

  it("refuses a file nested too deeply to validate before validating it", () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const text = `{"format":"${POOL_FORMAT}","version":1,"workers":[{"id":"a","name":"A","x":${deep}}]}`;
    const result = importPool(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe("invalid_file");
      expect(result.message).toMatch(/nested more than 100 levels deep/);
    }
  });

  it("fills defaults and redacts header values of an older hand-written file (all are secret)", () => {
    const result = importPool(
      envelope([
        { id: "a", name: "Local", headers: { Authorization: `Bearer ${KEY}`, "X-Title": "t" } },
      ]),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.workers[0]).toMatchObject({
      kind: "openai",
      baseURL: "",
      temperature: 0.2,
      maxTokens: 4096,
      headers: { Authorization: "[redacted]", "X-Title": "[redacted]" },
    });
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it("never throws, whatever the text", () => {
    for (const text of ["", "null", "0", '"x"', "{}", '{"format":"conductor-studio/pool"}'])
      expect(() => importPool(text)).not.toThrow();
  });
});
