import { describe, expect, it } from "vitest";
import { decimalSeparator, parseMoney } from "./money.ts";

describe("parseMoney", () => {
  it("reads blank as no cap, and amounts with a point or a leading $", () => {
    expect(parseMoney("  ", "en-US")).toEqual({ ok: true, value: null });
    expect(parseMoney("2.50", "en-US")).toEqual({ ok: true, value: 2.5 });
    expect(parseMoney("$0.005", "en-US")).toEqual({ ok: true, value: 0.005 });
    expect(parseMoney(".5", "en-US")).toEqual({ ok: true, value: 0.5 });
  });

  it("accepts the locale's decimal comma where it is the separator", () => {
    expect(decimalSeparator("de-DE")).toBe(",");
    expect(parseMoney("0,005", "de-DE")).toEqual({ ok: true, value: 0.005 });
    expect(parseMoney("2.5", "de-DE")).toEqual({ ok: true, value: 2.5 });
  });

  it("refuses anything else with a message: never no cap", () => {
    const comma = parseMoney("0,005", "en-US");
    expect(comma).toMatchObject({ ok: false });
    expect(!comma.ok && comma.message).toContain("point (0.005)");
    for (const bad of [
      "abc",
      "1e3",
      "-1",
      "1.2.3",
      "1,000.50",
      ".",
      "5 dollars",
      "Infinity",
      "0",
      "0.00",
    ])
      expect(parseMoney(bad, "en-US"), bad).toMatchObject({ ok: false });
  });
});
