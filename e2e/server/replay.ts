import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Provider quirks recorded as raw SSE bodies, written from each provider's documentation. */
export const FIXTURE_DIR = join(fileURLToPath(new URL(".", import.meta.url)), "fixtures");

/** The raw SSE text of a fixture file (a bare name: nothing outside the fixture folder is read). */
export function loadFixture(name: string): string {
  if (basename(name) !== name) throw new Error(`A fixture is a file name, not a path: ${name}`);
  return readFileSync(join(FIXTURE_DIR, name), "utf8");
}

/**
 * The frames of a raw SSE text, each with its blank-line terminator, in order. Lines starting with
 * `#` before the first frame are the fixture's own notes (its source) and are not sent.
 */
export function framesOf(text: string): string[] {
  const body = text.replace(/^(#[^\n]*\n)+\n*/, "").replace(/\r\n/g, "\n");
  return body
    .split(/\n\n+/)
    .filter((frame) => frame.trim() !== "")
    .map((frame) => `${frame}\n\n`);
}

/** Writes `text` and resolves once it is flushed, or once the client has gone. */
export function writeFlushed(res: ServerResponse, text: string): Promise<void> {
  return new Promise<void>((resolve) => {
    res.once("close", resolve);
    res.write(text, () => {
      res.off("close", resolve);
      resolve();
    });
  });
}
