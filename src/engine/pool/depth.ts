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
