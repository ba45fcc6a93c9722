// Output paths are checked before the first paid call: a bad --out found after the run has spent
// the money, or a crash on --training-data after the first item, loses what was paid for.
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";

const code = (e: unknown) =>
  e instanceof Error && "code" in e ? String(e.code) : e instanceof Error ? e.message : String(e);

/** Null when `path` can be written (created or appended to), else why not. */
export async function writableProblem(path: string): Promise<string | null> {
  const full = resolve(path);
  const existing = await stat(full).catch(() => null);
  if (existing?.isDirectory()) return "it is a folder.";
  if (existing)
    return access(full, constants.W_OK).then(
      () => null,
      (e: unknown) => `no permission to write it (${code(e)}).`,
    );
  const folder = dirname(path);
  const parent = await stat(dirname(full)).catch(() => null);
  if (!parent) return `the folder ${folder} does not exist.`;
  if (!parent.isDirectory()) return `${folder} is not a folder.`;
  return access(dirname(full), constants.W_OK).then(
    () => null,
    (e: unknown) => `no permission to write in the folder ${folder} (${code(e)}).`,
  );
}

/**
 * The first of `paths` that cannot be written, as a message for the user; null when all can.
 * `consequence` ends the message: what the command did not do because of it.
 */
export async function firstUnwritable(
  paths: readonly string[],
  consequence = "Nothing was sent to any model.",
): Promise<string | null> {
  for (const p of paths) {
    const problem = await writableProblem(p);
    if (problem) return `Cannot write ${p}: ${problem} ${consequence}`;
  }
  return null;
}

/**
 * Why the command must not write `outputs`, as a message for the user, or null when it may: an
 * output that is one of its `inputs` (writing it would destroy what the user gave), then the first
 * output that cannot be written. `consequence` ends the message.
 */
export async function outputProblem(
  outputs: readonly string[],
  inputs: readonly string[],
  consequence?: string,
): Promise<string | null> {
  const clash = outputs.find((o) => inputs.some((i) => resolve(i) === resolve(o)));
  if (clash) return `${clash} is an input of this command; choose another output path.`;
  return firstUnwritable(outputs, consequence);
}
