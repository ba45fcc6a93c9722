import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  SANDBOX_FRAME_POLICY,
  SANDBOX_FRAME_SCRIPT,
  SANDBOX_FRAME_SCRIPT_HASH,
  sandboxFrameDocument,
} from "./browser-frame.ts";

describe("the sandbox frame's document", () => {
  it("allows its one script by hash, and no connection", () => {
    const hash = createHash("sha256").update(SANDBOX_FRAME_SCRIPT).digest("base64");
    expect(SANDBOX_FRAME_SCRIPT_HASH).toBe(`'sha256-${hash}'`);
    expect(SANDBOX_FRAME_POLICY).toMatch(/^default-src 'none'; /);
    expect(SANDBOX_FRAME_POLICY).toContain("connect-src 'none'");
    expect(SANDBOX_FRAME_POLICY).not.toMatch(/ 'unsafe-eval'|unsafe-inline|'self'|https?:|data:/);
    const doc = sandboxFrameDocument();
    // The policy comes before the script, or the script would run without it.
    expect(doc.indexOf("Content-Security-Policy")).toBeLessThan(doc.indexOf("<script>"));
    expect(doc).toContain(`<script>${SANDBOX_FRAME_SCRIPT}</script>`);
  });
});
