import { defineConfig } from "vitest/config";
import type { Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { CONTENT_SECURITY_POLICY } from "./src/csp.ts";
import { pyodideAssets } from "./src/engine/eval/code/vite-plugin.ts";

/** Puts the Content-Security-Policy into the built index.html (csp.ts says what it allows). */
function contentSecurityPolicy(): Plugin {
  return {
    name: "conductor-studio-csp",
    apply: "build",
    transformIndexHtml: () => [
      {
        tag: "meta",
        attrs: { "http-equiv": "Content-Security-Policy", content: CONTENT_SECURITY_POLICY },
        injectTo: "head-prepend",
      },
    ],
  };
}

export default defineConfig({
  plugins: [react(), contentSecurityPolicy(), pyodideAssets()],
  preview: { headers: { "Content-Security-Policy": CONTENT_SECURITY_POLICY } },
  // Pyodide's files are served by pyodideAssets, not pre-bundled (see src/engine/eval/code).
  optimizeDeps: { exclude: ["pyodide"] },
  worker: { format: "es", plugins: () => [pyodideAssets({ emit: false })] },
  build: { target: "es2022", chunkSizeWarningLimit: 7000 },
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "e2e/server/**/*.test.ts"],
    environment: "node",
    restoreMocks: true,
  },
});
