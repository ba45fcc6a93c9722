/**
 * Build-time Vite plugin (used by vite.config.ts, never bundled): the app serves Pyodide's runtime
 * itself, from `<base>pyodide/`, so the code sandbox works offline and never touches a CDN. The
 * dev server streams the files from node_modules; a build copies them into dist/pyodide/. The
 * virtual module `virtual:pyodide-assets` tells the worker and the UI where they are and their size.
 */
import { createReadStream, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "vite";

/** What Pyodide fetches at start-up (pyodide.mjs itself is bundled into the worker). */
export const PYODIDE_FILES = [
  "pyodide.asm.mjs",
  "pyodide.asm.wasm",
  "python_stdlib.zip",
  "pyodide-lock.json",
] as const;

const TYPES: Record<string, string> = {
  mjs: "text/javascript",
  wasm: "application/wasm",
  zip: "application/zip",
  json: "application/json",
};

const VIRTUAL = "virtual:pyodide-assets";
const RESOLVED = "\0" + VIRTUAL;

/** `emit: false` for the worker build, which only needs the virtual module. */
export function pyodideAssets(opts: { emit?: boolean } = {}): Plugin {
  const dir = dirname(createRequire(import.meta.url).resolve("pyodide/package.json"));
  const version = (
    JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }
  ).version;
  const sizes = PYODIDE_FILES.map((name) => ({ name, bytes: statSync(join(dir, name)).size }));
  let base = "/";
  return {
    name: "conductor-pyodide-assets",
    configResolved(config) {
      base = config.base;
    },
    resolveId: (id) => (id === VIRTUAL ? RESOLVED : null),
    load(id) {
      if (id !== RESOLVED) return null;
      const totalBytes = sizes.reduce((n, f) => n + f.bytes, 0);
      const assets = { base: `${base}pyodide/`, version, files: sizes, totalBytes };
      return `export const PYODIDE_ASSETS = ${JSON.stringify(assets)};`;
    },
    configureServer(server) {
      server.middlewares.use(`${base}pyodide/`, (req, res, next) => {
        const name = (req.url ?? "").split("?")[0]?.replace(/^\//, "") ?? "";
        if (!(PYODIDE_FILES as readonly string[]).includes(name)) return next();
        res.setHeader(
          "Content-Type",
          TYPES[name.split(".").pop() ?? ""] ?? "application/octet-stream",
        );
        createReadStream(join(dir, name)).pipe(res);
      });
    },
    generateBundle() {
      if (opts.emit === false) return;
      for (const name of PYODIDE_FILES)
        this.emitFile({
          type: "asset",
          fileName: `pyodide/${name}`,
          source: readFileSync(join(dir, name)),
        });
    },
  };
}
