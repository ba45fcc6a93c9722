import { describe, expect, it } from "vitest";
import { exportRun, importRun } from "./export.ts";
import { emptyRecord } from "./record.ts";
import { exportPool, importPool } from "../pool/transfer.ts";
import type { Worker } from "../schema/worker.ts";

/** Header names a name heuristic let through; each carries a credential at some provider. */
const SECRET_NAMES = [
  "Helicone-Auth",
  "Ocp-Apim-Subscription-Key",
  "X-Auth-Key",
  "X-Access-Key",
  "X-Key",
  "OpenAI-Organization",
];
const headerWorker: Worker = {
  id: "w1",
  name: "Proxy",
  kind: "openai",
  baseURL: "https://proxy.example/v1",
  model: "m",
  temperature: 0.2,
  maxTokens: 100,
  prefill: false,
  headers: {
    ...Object.fromEntries(SECRET_NAMES.map((n, i) => [n, `secret-value-${i}`])),
    "X-Title": "my studio",
  },
  plainHeaders: ["X-Title"],
};

describe("every custom header value is a secret unless marked plain", () => {
  it.each(SECRET_NAMES)("%s: a run export keeps the name and redacts the value", (name) => {
    const text = exportRun(
      { ...emptyRecord("r"), pool: [headerWorker] },
      "2026-01-01T00:00:00.000Z",
    );
    expect(text).not.toMatch(/secret-value/);
    const back = importRun(text);
    expect(back.ok && back.record.pool[0]?.headers?.[name]).toBe("[redacted]");
    expect(back.ok && back.record.pool[0]?.headers?.["X-Title"]).toBe("my studio");
  });

  it.each(SECRET_NAMES)("%s: a pool file keeps the name and redacts the value", (name) => {
    const text = exportPool([headerWorker]);
    expect(text).not.toMatch(/secret-value/);
    const back = importPool(text);
    expect(back.ok && back.workers[0]?.headers?.[name]).toBe("[redacted]");
  });

  it("an imported pool file never supplies a secret value, even one written into the file", () => {
    const text = JSON.stringify({
      format: "conductor-studio/pool",
      version: 1,
      workers: [{ ...headerWorker, plainHeaders: undefined }],
    });
    const back = importPool(text);
    expect(back.ok).toBe(true);
    expect(JSON.stringify(back)).not.toMatch(/secret-value|my studio/);
  });
});

describe("export redacts credential headers", () => {
  it("keeps ordinary headers and hides Authorization, x-api-key and friends", () => {
    const record = {
      ...emptyRecord("r"),
      pool: [
        {
          id: "w0",
          name: "Claude",
          kind: "openai" as const,
          provider: "anthropic",
          baseURL: "https://api.anthropic.com/v1",
          model: "claude-sonnet-4",
          temperature: 0.2,
          maxTokens: 4096,
          prefill: false,
          headers: {
            "anthropic-dangerous-direct-browser-access": "true",
            Authorization: "Bearer sk-secret-1",
            "x-api-key": "sk-secret-2",
          },
        },
      ],
      conductor: {
        kind: "openai" as const,
        baseURL: "http://localhost:8000/v1",
        model: "c",
        temperature: 0.2,
        maxTokens: 1024,
        headers: { "X-Auth-Token": "sk-secret-3" },
      },
    };
    const text = exportRun(record, "2026-01-01T00:00:00.000Z");
    expect(text).not.toMatch(/sk-secret/);
    const back = importRun(text);
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.record.pool[0]?.headers).toEqual({
      "anthropic-dangerous-direct-browser-access": "true",
      Authorization: "[redacted]",
      "x-api-key": "[redacted]",
    });
    expect(back.record.conductor?.headers).toEqual({ "X-Auth-Token": "[redacted]" });
  });
});
