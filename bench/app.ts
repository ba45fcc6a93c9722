import { createReadStream, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve, sep } from "node:path";
import { build } from "vite";

const ROOT = resolve(import.meta.dirname, "..");
const DIST = join(ROOT, "dist");

/** The newest modification time of any file under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export interface BuiltApp {
  dir: string;
  /** Where it came from, for the printout. */
  source: string;
  dispose(): void;
}

/**
 * The built app: `dist/` when it is newer than every source file (after `npm run build`),
 * otherwise a fresh `vite build` into a temporary folder, removed by `dispose`.
 */
export async function builtApp(): Promise<BuiltApp> {
  const index = join(DIST, "index.html");
  const sources = Math.max(
    newestMtime(join(ROOT, "src")),
    statSync(join(ROOT, "index.html")).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources)
    return { dir: DIST, source: "dist/", dispose: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), "conductor-bench-"));
  await build({
    root: ROOT,
    logLevel: "error",
    build: { outDir: dir, emptyOutDir: true },
  });
  return {
    dir,
    source: "a fresh vite build (dist/ is missing or older than src/)",
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".wasm": "application/wasm",
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** Serves a built app on 127.0.0.1 at a free port; unknown paths get index.html (SPA). */
export async function serveStatic(dir: string): Promise<StaticServer> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? "/").split("?")[0] ?? "/");
    let file = normalize(join(root, path));
    if (!file.startsWith(root + sep) || !existsSync(file) || statSync(file).isDirectory())
      file = join(root, "index.html");
    res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
