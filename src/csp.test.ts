import { describe, expect, it } from "vitest";
import {
  CODE_WORKER_POLICY,
  CONTENT_SECURITY_POLICY,
  HEADER_POLICY,
  staticHostHeaders,
} from "./csp.ts";

describe("the headers a host sends", () => {
  it("forbid framing, which only a header can say, and give the code worker its own policy", () => {
    expect(CONTENT_SECURITY_POLICY).not.toContain("frame-ancestors"); // ignored in a <meta>
    expect(HEADER_POLICY).toContain("frame-ancestors 'none'");
    expect(CODE_WORKER_POLICY).toMatch(/^default-src 'none'/);
    expect(CODE_WORKER_POLICY).not.toMatch(/ 'unsafe-eval'|connect-src [^;]*https:/);
    const file = staticHostHeaders("/studio/");
    expect(file).toContain(`/studio/*\n  Content-Security-Policy: ${HEADER_POLICY}\n`);
    expect(file).toContain("  X-Frame-Options: DENY\n");
    expect(file).toContain(
      `/studio/assets/code-worker-*\n  Content-Security-Policy: ${CODE_WORKER_POLICY}\n`,
    );
  });
});
