import { configDefaults, defineConfig } from "vitest/config";
import type { Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { APP_HEADERS, CONTENT_SECURITY_POLICY, staticHostHeaders } from "./src/csp.ts";
import { pyodideAssets } from "./src/node/vite/pyodide-assets.ts";

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

/** The headers a host must send (csp.ts): `vite preview` sends them, a build writes `dist/_headers`. */
function hostHeaders(): Plugin {
  let base = "/";
  return {
    name: "conductor-studio-headers",
    configResolved(config) {
      base = config.base;
    },
    configurePreviewServer(server) {
      server.middlewares.use((_req, res, next) => {
        for (const [k, v] of Object.entries(APP_HEADERS)) res.setHeader(k, v);
        next();
      });
    },
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "_headers", source: staticHostHeaders(base) });
    },
  };
}

/** The engine's tests, which run in one shared module graph (the "engine" project below)... */
const ENGINE = "src/engine/**/*.test.{ts,tsx}";
/** ...but for these, which change what other files would see: the Node sandbox tests (processes,
 * globals) and scorers.test.ts (registerScorer adds to the registry for good). */
const ENGINE_ISOLATED = ["src/engine/**/*.node.test.ts", "src/engine/eval/scorers/scorers.test.ts"];

export default defineConfig({
  plugins: [react(), contentSecurityPolicy(), hostHeaders(), pyodideAssets()],
  // Pyodide's files are served by pyodideAssets, not pre-bundled (see src/engine/eval/code).
  optimizeDeps: { exclude: ["pyodide"] },
  worker: { format: "es" },
  build: { target: "es2022", chunkSizeWarningLimit: 7000 },
  test: {
    environment: "node",
    restoreMocks: true,
    // Time limits catch hangs, they assert nothing: CI runs on a loaded 2-core machine, where a cold
    // import of the math engine alone took 7.4 s (load 14), past vitest's 5 s default.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // The engine's tests share one module graph (isolate: false): a file no longer loads zod and
      // the engine afresh, which was most of their time.
      {
        extends: true,
        test: {
          name: "engine",
          include: [ENGINE],
          exclude: [...configDefaults.exclude, ...ENGINE_ISOLATED],
          isolate: false,
        },
      },
      { extends: true, test: { name: "engine-isolated", include: ENGINE_ISOLATED } },
      {
        extends: true,
        test: {
          name: "isolated",
          include: ["src/**/*.test.{ts,tsx}", "e2e/server/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "src/engine/**"],
        },
      },
    ],
  },
});
