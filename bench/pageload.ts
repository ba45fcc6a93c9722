import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/** Asset paths (relative to the app root) that index.html loads: module scripts and modulepreloads. */
export function entryAssets(html: string): string[] {
  const found: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isScript = tag.startsWith("<script") && /type=["']?module/.test(tag);
    const isPreload = tag.startsWith("<link") && /rel=["']?modulepreload/.test(tag);
    const url = /(?:src|href)=["']([^"']+)["']/.exec(tag)?.[1];
    if ((isScript || isPreload) && url && !/^https?:/.test(url)) found.push(url.replace(/^\//, ""));
  }
  return found;
}

/** Chunks a module imports statically (`import"./x.js"`, `from"./x.js"`), as paths beside it. */
function staticImports(code: string, dir: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["'`]\.\/([^"'`]+\.js)["'`]/g))
    out.push(`${dir}/${m[1]}`);
  return out;
}

const gz = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/**
 * The JS chunks the first page load fetches: index.html's module scripts and modulepreloads and
 * everything they import statically. Dynamic `import()`s and workers are not in it.
 */
export function initialChunks(dist: string): Set<string> {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const initial = new Set<string>();
  const todo = entryAssets(html).filter((p) => p.endsWith(".js"));
  while (todo.length) {
    const path = todo.pop()!;
    if (initial.has(path)) continue;
    initial.add(path);
    const dir = path.split("/").slice(0, -1).join("/");
    todo.push(...staticImports(readFileSync(join(dist, path), "utf8"), dir));
  }
  return initial;
}

/** The first load's JS in gzip -9 bytes (what the 250 KB budget counts). */
export function firstLoadGzip(dist: string): number {
  let total = 0;
  for (const path of initialChunks(dist)) total += gz(readFileSync(join(dist, path)));
  return total;
}

/** Prints the gzipped JS the first page load needs, and the lazy chunks apart from it. */
export function benchPageLoad(dist: string, source: string): void {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const initial = initialChunks(dist);
  const css = (html.match(/<link\b[^>]*rel=["']?stylesheet[^>]*>/g) ?? []).flatMap((tag) => {
    const href = /href=["']([^"']+)["']/.exec(tag)?.[1];
    return href ? [href.replace(/^\//, "")] : [];
  });
  const all = readdirSync(join(dist, "assets"))
    .filter((f) => f.endsWith(".js"))
    .map((f) => `assets/${f}`);
  const code = new Map(all.map((p) => [p, readFileSync(join(dist, p))]));
  const text = [...code.values()].map((b) => b.toString("utf8")).join("\n");

  console.log(`\nInitial page load (gzip -9, from ${source})`);
  let total = 0;
  for (const path of initial) {
    const bytes = code.get(path) ?? readFileSync(join(dist, path));
    total += gz(bytes);
    console.log(
      `  ${path.padEnd(40)} ${kb(bytes.length).padStart(11)} raw  ${kb(gz(bytes)).padStart(10)} gzip`,
    );
  }
  console.log(`  initial JS total: ${kb(total)} gzip`);
  for (const path of css) {
    const bytes = readFileSync(join(dist, path));
    console.log(
      `  ${path.padEnd(40)} ${kb(bytes.length).padStart(11)} raw  ${kb(gz(bytes)).padStart(10)} gzip (CSS)`,
    );
  }
  const lazy = all.filter((p) => !initial.has(p));
  console.log(lazy.length ? "Lazy chunks (loaded on demand):" : "Lazy chunks: none");
  for (const path of lazy) {
    const name = path.slice("assets/".length);
    const kind = new RegExp(
      `new Worker\\(new URL\\([\`"'][^\`"']*${name.replace(/[.]/g, "\\.")}`,
    ).test(text)
      ? "worker"
      : "import()";
    const bytes = code.get(path)!;
    console.log(
      `  ${path.padEnd(40)} ${kb(bytes.length).padStart(11)} raw  ${kb(gz(bytes)).padStart(10)} gzip  (${kind})`,
    );
  }
}
