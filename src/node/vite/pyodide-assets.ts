/**
 * Build-time Vite plugin (used by vite.config.ts, never bundled): the app serves Pyodide's runtime
 * itself, from `<base>pyodide/`, so the code sandbox works offline and never touches a CDN. The
 * page fetches these files and hands their bytes to each sandbox frame, which has no network
 * (src/engine/eval/code/browser-sandbox.ts). `sandbox-host.js` is the interpreter's worker script,
 * bundled here with Pyodide's loader and its `pyodide.asm.mjs` into one classic script, so the
 * frame can start it from a blob. The dev server builds it on request; a build writes it with
 * the others into dist/pyodide/. `virtual:pyodide-assets` tells the page where they are and their size.
 */
import { createReadStream, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Plugin } from "vite";

/** Pyodide's files the interpreter reads at start-up, as they come in the package (its
 * `pyodide.asm.mjs` is bundled into the host script). */
export const PYODIDE_FILES = [
  "pyodide.asm.wasm",
  "python_stdlib.zip",
  "pyodide-lock.json",
] as const;
/** The worker script the frame starts (browser-worker.ts, bundled). */
const HOST_SCRIPT = "sandbox-host.js";

const TYPES: Record<string, string> = {
  js: "text/javascript",
  wasm: "application/wasm",
  zip: "application/zip",
  json: "application/json",
};

const VIRTUAL = "virtual:pyodide-assets";
const RESOLVED = "\0" + VIRTUAL;
const HOST_ENTRY = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../engine/eval/code/browser-worker.ts",
);

/** Bundles the frame's worker script: browser-worker.ts with Pyodide, as one classic script. */
async function buildHostScript(pyodideDir: string): Promise<Uint8Array> {
  const out = await build({
    entryPoints: [HOST_ENTRY],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    logLevel: "silent",
    // Before Pyodide's code: it takes a worker whose importScripts works for a classic worker,
    // which it refuses; the frame's policy blocks it anyway, and no program needs it.
    banner: {
      js: 'self.importScripts=function(){throw new TypeError("importScripts is off in the code sandbox")};',
    },
    // Pyodide's Node-only branches import these; in a browser they are never reached.
    external: ["node:*", "fs", "fs/promises", "path", "url", "crypto", "child_process", "ws", "vm"],
    plugins: [
      {
        name: "pyodide-asm",
        setup(b) {
          b.onResolve({ filter: /^virtual:pyodide-asm$/ }, () => ({
            path: join(pyodideDir, "pyodide.asm.mjs"),
          }));
        },
      },
    ],
  });
  const file = out.outputFiles[0];
  if (!file) throw new Error("esbuild wrote no sandbox host script");
  return file.contents;
}

/** The plugin: the virtual module, the dev server's `pyodide/` route and the build's copies. */
export function pyodideAssets(): Plugin {
  const dir = dirname(createRequire(import.meta.url).resolve("pyodide/package.json"));
  const version = (
    JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }
  ).version;
  let base = "/";
  let host: Promise<Uint8Array> | null = null;
  const hostScript = () => (host ??= buildHostScript(dir));
  return {
    name: "conductor-pyodide-assets",
    configResolved(config) {
      base = config.base;
    },
    resolveId: (id) => (id === VIRTUAL ? RESOLVED : null),
    async load(id) {
      if (id !== RESOLVED) return null;
      const files: { name: string; bytes: number }[] = PYODIDE_FILES.map((name) => ({
        name,
        bytes: statSync(join(dir, name)).size,
      }));
      files.push({ name: HOST_SCRIPT, bytes: (await hostScript()).length });
      const totalBytes = files.reduce((n, f) => n + f.bytes, 0);
      const assets = { base: `${base}pyodide/`, version, files, totalBytes };
      return `export const PYODIDE_ASSETS = ${JSON.stringify(assets)};`;
    },
    configureServer(server) {
      server.middlewares.use(`${base}pyodide/`, (req, res, next) => {
        const name = (req.url ?? "").split("?")[0]?.replace(/^\//, "") ?? "";
        const type = TYPES[name.split(".").pop() ?? ""] ?? "application/octet-stream";
        if (name === HOST_SCRIPT) {
          // Rebuilt on each request in development, so an edit to the worker is picked up.
          host = null;
          hostScript().then(
            (bytes) => {
              res.setHeader("Content-Type", type);
              res.end(bytes);
            },
            (e: unknown) => next(e),
          );
          return;
        }
        if (!(PYODIDE_FILES as readonly string[]).includes(name)) return next();
        res.setHeader("Content-Type", type);
        createReadStream(join(dir, name)).pipe(res);
      });
    },
    async generateBundle() {
      for (const name of PYODIDE_FILES)
        this.emitFile({
          type: "asset",
          fileName: `pyodide/${name}`,
          source: readFileSync(join(dir, name)),
        });
      this.emitFile({
        type: "asset",
        fileName: `pyodide/${HOST_SCRIPT}`,
        source: await hostScript(),
      });
    },
  };
}
