import { describe, expect, it } from "vitest";
import { newId } from "./ids.ts";

describe("newId", () => {
  it("names its kind, sorts by time, and never repeats within a page, even in one millisecond", () => {
    const at = Date.UTC(2026, 11, 1);
    const ids = Array.from({ length: 2000 }, () => newId("s", at));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toMatch(/^s-[0-9a-z]{8}-[0-9a-z]+$/);
    expect(newId("run", at).startsWith(`run-${at.toString(36)}-`)).toBe(true);
    const earlier = newId("w", at - 1);
    const later = newId("w", at);
    expect(earlier < later).toBe(true);
    expect(newId("eval").split("-")).toHaveLength(3);
  });
});
