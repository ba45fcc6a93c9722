import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  worker: { format: "es" },
  build: { target: "es2022", chunkSizeWarningLimit: 7000 },
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "e2e/server/**/*.test.ts"],
    environment: "node",
    restoreMocks: true,
  },
});
