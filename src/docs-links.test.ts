// Every relative link in README.md, train/README.md and docs/*.md resolves: the file exists, and
// an anchor (`file.md#heading`, `#heading`) names a heading of that file, slugged as GitHub does.
// The manual was split out of one README; this keeps its cross-references from rotting.
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Markdown without its fenced code blocks: a `#` line there is code, not a heading. */
function withoutFences(md: string): string {
  return md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** Markdown outside code (fenced and inline): links there are examples, not links. */
function prose(md: string): string {
  return withoutFences(md).replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a Markdown file offers: headings, repeats numbered as GitHub numbers them. */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of withoutFences(md).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = slug(m[1] ?? "");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  // Explicit anchors, as docs/protocol.md gives each section its number: <a id="1.3"></a>.
  for (const m of withoutFences(md).matchAll(/<a (?:id|name)="([^"]+)"/g)) out.add(m[1] ?? "");
  return out;
}

/** Relative link targets in a Markdown file: `[text](target)` and `![alt](target)`. */
function links(md: string): string[] {
  const targets = [...prose(md).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map((m) => m[1] ?? "");
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** What is wrong with each link of a file, as "file: target (why)". */
function broken(file: string): string[] {
  const md = readFileSync(file, "utf8");
  const problems: string[] = [];
  for (const target of links(md)) {
    const [path = "", anchor] = target.split("#", 2);
    const to = path === "" ? file : join(dirname(file), decodeURI(path));
    const name = `${relative(ROOT, file)}: ${target}`;
    if (!existsSync(to)) problems.push(`${name} (no such file)`);
    else if (
      anchor !== undefined &&
      to.endsWith(".md") &&
      !anchors(readFileSync(to, "utf8")).has(anchor)
    )
      problems.push(`${name} (no such heading)`);
  }
  return problems;
}

const DOCS = join(ROOT, "docs");
const FILES = [
  join(ROOT, "README.md"),
  join(ROOT, "train", "README.md"),
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith(".md"))
    .map((f) => join(DOCS, f)),
];

describe("links in the README and docs/", () => {
  it.for(FILES.map((f) => relative(ROOT, f)))(
    "%s: every relative link resolves",
    (file, { expect }) => {
      expect(broken(join(ROOT, file))).toEqual([]);
    },
  );

  it("the README links every page of docs/", ({ expect }) => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const linked = new Set(links(readme).map((t) => t.split("#")[0]));
    const pages = FILES.slice(2).map((f) => relative(ROOT, f));
    expect(pages.filter((p) => !linked.has(p))).toEqual([]);
  });

  it("finds a missing file, a missing heading, and follows repeats and code as GitHub does", ({
    expect,
  }) => {
    expect([
      ...anchors('# A\n## A\n```\n# Not a heading\n```\n## Évaluer: `x` & y\n<a id="1.3"></a>\n'),
    ]).toEqual(["a", "a-1", "évaluer-x--y", "1.3"]);
    expect(
      links("[a](b.md#c) `[d](e.md)` [f](https://g) ![h](i.png)\n```\n[j](k.md)\n```\n"),
    ).toEqual(["b.md#c", "i.png"]);
    const dir = mkdtempSync(join(tmpdir(), "docs-links-"));
    writeFileSync(join(dir, "b.md"), "# Here\n");
    writeFileSync(
      join(dir, "a.md"),
      "[ok](b.md#here) [gone](c.md) [bad](b.md#there) [self](#top)\n# Top\n",
    );
    expect(broken(join(dir, "a.md")).map((p) => p.replace(/^.*: /, ""))).toEqual([
      "c.md (no such file)",
      "b.md#there (no such heading)",
    ]);
  });
});
