import { describe, expect, it } from "vitest";
import { SANDBOX_FRAME_SCRIPT_HASH } from "./engine/eval/code/browser-frame.ts";
import { CONTENT_SECURITY_POLICY, HEADER_POLICY, staticHostHeaders } from "./csp.ts";

describe("the headers a host sends", () => {
  it("forbid framing, which only a header can say", () => {
    expect(CONTENT_SECURITY_POLICY).not.toContain("frame-ancestors"); // ignored in a <meta>
    expect(HEADER_POLICY).toContain("frame-ancestors 'none'");
    const file = staticHostHeaders("/studio/");
    expect(file).toContain(`/studio/*\n  Content-Security-Policy: ${HEADER_POLICY}\n`);
    expect(file).toContain("  X-Frame-Options: DENY\n");
  });

  it("let the code sandbox frame's one script run (a srcdoc frame inherits the page's policy)", () => {
    expect(CONTENT_SECURITY_POLICY).toMatch(/script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
    expect(CONTENT_SECURITY_POLICY).toContain(SANDBOX_FRAME_SCRIPT_HASH);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(
      /'unsafe-inline'[^;]*; worker|script-src[^;]*'unsafe-inline'/,
    );
  });
});
