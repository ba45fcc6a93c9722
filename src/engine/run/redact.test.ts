import { describe, expect, it } from "vitest";
import { exportRun, importRun } from "./export.ts";
import { emptyRecord } from "./record.ts";

describe("export redacts credential headers", () => {
  it("keeps ordinary headers and hides Authorization, x-api-key and friends", () => {
    const record = {
      ...emptyRecord("r"),
      pool: [
        {
          id: "w0",
          name: "Claude",
          kind: "openai" as const,
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
