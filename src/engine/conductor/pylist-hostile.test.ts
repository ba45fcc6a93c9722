// readPyList against cut-off and malformed literals: the exact reason a user is shown, whether the
// read counts as truncated (a stream still running), and that no input makes it throw.
import { describe, expect, it } from "vitest";
import { readPyList } from "./pylist.ts";

describe("readPyList: input that ends inside the list", () => {
  it.each<[string, string, unknown[]]>([
    [`[`, "the list has no closing ']'", []],
    [`(`, "the list has no closing ')'", []],
    [`[1, `, "the list has no closing ']'", [1]],
    [`[1,`, "the list has no closing ']'", [1]],
    [`["a"`, "the list has no closing ']'", []],
    [`["a", "b"  `, "the list has no closing ']'", ["a"]],
    [`[1, # a comment that runs to the end`, "the list has no closing ']'", [1]],
    [`[# only a comment`, "the list has no closing ']'", []],
    [`["""never closed`, "a string is not closed", []],
    [`[1, '''open`, "a string is not closed", [1]],
  ])("%s: %s (truncated)", (src, reason, items) => {
    expect(readPyList(src, 0)).toEqual({ ok: false, reason, truncated: true, items });
  });
});

describe("readPyList: escapes and numbers", () => {
  it("refuses a hex escape whose first digit is not hex (and never throws)", () => {
    for (const src of [String.raw`["\xG1"]`, String.raw`["\u-123"]`, String.raw`["\UZ0001F600"]`]) {
      const r = readPyList(src, 0);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.reason).toMatch(/^a bad \\[xuU] escape near offset \d+$/);
    }
  });

  it("reads decimals and exponents with several digits", () => {
    expect(readPyList(`[0.25, 1e10, 2.5e-10, -12.125]`, 0)).toEqual({
      ok: true,
      value: [0.25, 1e10, 2.5e-10, -12.125],
      end: 30,
    });
  });

  it("keeps an escaped quote inside the string it escapes", () => {
    expect(readPyList(String.raw`["a\", \"b"]`, 0)).toEqual({
      ok: true,
      value: ['a", "b'],
      end: 12,
    });
  });
});
