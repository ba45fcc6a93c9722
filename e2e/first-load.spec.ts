import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { firstLoadGzip, initialChunks } from "../bench/pageload.ts";

// The built app this suite serves (`npm test` builds before Playwright runs).
const DIST = resolve(import.meta.dirname, "..", "dist");
/** The studio's budget for the JS of its first page load, gzip -9 (README, issue 39). */
const BUDGET = 250 * 1024;

test("the studio's first load stays within 250 KB of gzipped JS", () => {
  expect(existsSync(resolve(DIST, "index.html")), "run `npx vite build` first").toBe(true);
  // A non-empty set, so a change in how index.html names its scripts cannot pass this by zero.
  expect(initialChunks(DIST).size).toBeGreaterThan(0);
  const bytes = firstLoadGzip(DIST);
  expect(bytes, `first load is ${(bytes / 1024).toFixed(1)} KB gzipped`).toBeLessThanOrEqual(
    BUDGET,
  );
});
