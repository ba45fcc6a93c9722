import { describe, expect, it } from "vitest";
import { WorkerSchema, readExtraBody } from "./worker.ts";

describe("extra request fields", () => {
  it("reads a JSON object, and empty text as none", () => {
    expect(readExtraBody('{"reasoning_effort": "low"}')).toEqual({
      ok: true,
      body: { reasoning_effort: "low" },
    });
    expect(readExtraBody("  ")).toEqual({ ok: true, body: undefined });
    expect(readExtraBody("{}")).toEqual({ ok: true, body: undefined });
  });

  it("refuses bad JSON, non-objects and fields that replace the call, with a message", () => {
    const bad = (text: string) => {
      const r = readExtraBody(text);
      return r.ok ? null : r.message;
    };
    expect(bad('{"a": ')).toMatch(/^Not valid JSON/);
    expect(bad("[1, 2]")).toMatch(/JSON object/);
    expect(bad('{"stream": false, "x": 1}')).toBe(
      'Extra request fields cannot override "stream"; remove it.',
    );
    expect(bad('{"model": "m", "messages": []}')).toMatch(/"model", "messages"; remove them/);
  });

  it("is part of a worker, and a stored worker that overrides the call is refused", () => {
    const base = { id: "w", name: "W" };
    expect(WorkerSchema.parse({ ...base, extraBody: { top_k: 20 } }).extraBody).toEqual({
      top_k: 20,
    });
    expect(WorkerSchema.safeParse({ ...base, extraBody: { model: "x" } }).success).toBe(false);
  });
});
