import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import { pyodideAssets } from "./src/engine/eval/code/vite-plugin.ts";

export default defineConfig({
  plugins: [react(), pyodideAssets()],
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
