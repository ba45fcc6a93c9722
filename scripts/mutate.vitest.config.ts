// The Vitest config scripts/mutate.sh hands Stryker: the project's config with only the test files
// named in MUTATE_TESTS (space-separated), so a mutation run never starts the whole suite.
// (Not mergeConfig: it would append these files to the project's include, not replace it.)
import { defineConfig } from "vitest/config";
import base from "../vite.config.ts";

const tests = (process.env.MUTATE_TESTS ?? "").split(/\s+/).filter(Boolean);
if (tests.length === 0)
  throw new Error("MUTATE_TESTS names no test file (scripts/mutate.sh sets it)");

// A generous time-out: Stryker's instrumented code runs slower than the plain suite.
export default defineConfig({
  ...base,
  // One project of just these files (the projects of vite.config.ts would ignore this include).
  test: { ...base.test, projects: undefined, include: tests, testTimeout: 60_000 },
});
