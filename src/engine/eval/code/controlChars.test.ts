import { describe, expect, it } from "vitest";
import { showControlChars } from "./controlChars.ts";

describe("showControlChars", () => {
  it("writes terminal escapes, other controls and bidi overrides visibly; keeps text, \\n and \\t", () => {
    expect(showControlChars("\x1b]0;pwned\x07ValueError\x1b[2K\r")).toBe(
      "\\x1b]0;pwned\\x07ValueError\\x1b[2K\\x0d",
    );
    expect(showControlChars("a\u202eb\u0000\x9b")).toBe("a\\u202eb\\x00\\x9b");
    expect(showControlChars("line 1\n\tline 2 — ünïcode ✓")).toBe("line 1\n\tline 2 — ünïcode ✓");
  });
});
