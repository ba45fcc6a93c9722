import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

// Debian's Chromium where it exists (Playwright cannot download browsers here); Playwright's own
// browser elsewhere, so the suite also runs on a contributor's laptop.
const SYSTEM_CHROMIUM = "/usr/bin/chromium";
const executablePath = existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined;

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

// PW_PORT lets two suites run side by side (e.g. a CI check while developing).
const PREVIEW_PORT = Number(process.env.PW_PORT ?? 4273);

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  // Limits catch hangs and assert no duration: CI runs on a loaded 2-core machine, where the default
  // 5 s for an expectation is not enough for a first render under load.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${PREVIEW_PORT}`,
    browserName: "chromium",
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
    trace: "off",
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${PREVIEW_PORT} --strictPort`,
    url: `http://127.0.0.1:${PREVIEW_PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
