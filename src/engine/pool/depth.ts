import type { Result } from "../errors.ts";
import { failure } from "../errors.ts";
import { clip } from "../schema/guards.ts";

/**
 * The deepest nesting of arrays and objects a file may have. Validators recurse, so a document
 * nested thousands of levels deep would overflow the stack; this is checked first, without
 * recursion. A run with nested workflows several levels deep stays far below it.
 */
export const MAX_JSON_DEPTH = 100;

/** Why a parsed JSON value is nested too deeply to validate, or null when it is not. */
export function jsonDepthProblem(value: unknown, limit = MAX_JSON_DEPTH): string | null {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() ?? [null, 0];
    if (typeof v !== "object" || v === null) continue;
    if (depth > limit)
      return `it is nested more than ${limit} levels deep; a Conductor Studio file never is.`;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return null;
}

/**
 * Parses a file's text as JSON and refuses nesting too deep to validate: the first step of every
 * strict importer (runs, pools). Never throws on user data.
 */
export function parseBoundedJson(text: string): Result<{ doc: unknown }> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e: unknown) {
    return {
      ok: false,
      ...failure("bad_json", e instanceof Error ? clip(e.message, 120) : undefined),
    };
  }
  const deep = jsonDepthProblem(doc);
  if (deep) return { ok: false, ...failure("invalid_file", deep) };
  return { ok: true, doc };
}
