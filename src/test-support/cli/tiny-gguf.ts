import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Writes the tiny test GGUF (scripts/make-tiny-gguf.py) to a fresh temporary folder. */
export function makeTinyGguf(): string {
  const out = join(mkdtempSync(join(tmpdir(), "tiny-gguf-")), "tiny.gguf");
  execFileSync("python3", ["scripts/make-tiny-gguf.py", out]);
  return out;
}
