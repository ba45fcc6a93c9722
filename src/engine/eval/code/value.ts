/**
 * A function test's verdict, decided here and never inside the interpreter. The harness returns
 * the program's value encoded from exact built-in types (harness.ts `_encode`):
 *   None, bool, str as themselves; `{"int": "12"}`; `{"float": 0.5}` (or "nan", "inf", "-inf");
 *   a list as an array; `{"tuple": [...]}`; `{"set": [...]}`; `{"dict": [["key", value], ...]}`
 *   with each key as Python's `str(key)`.
 * The comparison rules are docs/code-scoring.md's: lists and tuples alike, dicts by key, floats
 * within 1e-9 (relative or absolute), a set against a list as sorted, bool against a number as
 * Python's `==`.
 */
import { z } from "zod";

export type PyValue =
  | null
  | boolean
  | string
  | PyValue[]
  | { int: string }
  | { float: number | string }
  | { tuple: PyValue[] }
  | { set: PyValue[] }
  | { dict: [string, PyValue][] };

export const pyValueSchema: z.ZodType<PyValue> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.string(),
    z.array(pyValueSchema),
    z.strictObject({ int: z.string().regex(/^-?\d+$/) }),
    z.strictObject({ float: z.union([z.number(), z.enum(["nan", "inf", "-inf"])]) }),
    z.strictObject({ tuple: z.array(pyValueSchema) }),
    z.strictObject({ set: z.array(pyValueSchema) }),
    z.strictObject({ dict: z.array(z.tuple([z.string(), pyValueSchema])) }),
  ]),
);

type Num = { kind: "int"; big: bigint } | { kind: "float"; x: number };

function asNumber(v: PyValue): Num | null {
  if (typeof v === "boolean") return { kind: "int", big: v ? 1n : 0n };
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  if ("int" in v) return { kind: "int", big: BigInt(v.int) };
  if ("float" in v) {
    const f = v.float;
    const x = f === "nan" ? NaN : f === "inf" ? Infinity : f === "-inf" ? -Infinity : f;
    return { kind: "float", x: typeof x === "number" ? x : NaN };
  }
  return null;
}

/** Python's math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9). */
export function isClose(a: number, b: number): boolean {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  const diff = Math.abs(a - b);
  return diff <= Math.max(1e-9 * Math.max(Math.abs(a), Math.abs(b)), 1e-9);
}

function equalNumber(a: Num, b: number, bool: boolean): boolean {
  if (a.kind === "int") {
    // An expected integer beyond 2^53 arrives as a bigint; a number here is a float or a safe int.
    if (Number.isInteger(b) && Number.isSafeInteger(b)) return a.big === BigInt(b);
    if (Number.isInteger(b)) return Number(a.big) === b;
    return !bool && isClose(Number(a.big), b);
  }
  return bool ? a.x === b : isClose(a.x, b);
}

function items(v: PyValue): PyValue[] | null {
  if (Array.isArray(v)) return v;
  if (v !== null && typeof v === "object" && "tuple" in v) return v.tuple;
  return null;
}

/** A sort key that orders numbers and strings apart; null when a set's items do not sort. */
function sortedItems(xs: readonly unknown[], read: (x: unknown) => number | string | null) {
  const keys = xs.map(read);
  if (keys.some((k) => k === null)) return null;
  const kinds = new Set(keys.map((k) => typeof k));
  if (kinds.size > 1) return null;
  return [...keys].sort((p, q) => (p! < q! ? -1 : p! > q! ? 1 : 0));
}

const actualKey = (x: unknown): number | string | null => {
  if (typeof x === "string") return x;
  const n = asNumber(x as PyValue);
  if (!n || typeof x === "boolean") return null;
  return n.kind === "int" ? Number(n.big) : n.x;
};
const expectedKey = (x: unknown): number | string | null =>
  typeof x === "string" || typeof x === "number" ? x : typeof x === "bigint" ? Number(x) : null;

/** Whether the program's value equals the item's expected JSON value. */
export function equalsExpected(actual: PyValue, expected: unknown): boolean {
  // An integer past 2^53, read exactly (tests-schema.ts): only an int of the same digits equals it.
  if (typeof expected === "bigint") {
    const n = asNumber(actual);
    if (!n || typeof actual === "boolean") return false;
    return n.kind === "int" ? n.big === expected : isClose(n.x, Number(expected));
  }
  if (typeof expected === "boolean" || typeof actual === "boolean") {
    const n = asNumber(actual);
    if (typeof expected === "boolean") return n !== null && equalNumber(n, expected ? 1 : 0, true);
    return typeof expected === "number" && n !== null && equalNumber(n, expected, true);
  }
  if (typeof expected === "number") {
    const n = asNumber(actual);
    return n !== null && equalNumber(n, expected, false);
  }
  if (Array.isArray(expected)) {
    if (actual !== null && typeof actual === "object" && "set" in actual) {
      const a = sortedItems(actual.set, actualKey);
      const b = sortedItems(expected, expectedKey);
      if (!a || !b || a.length !== b.length) return false;
      return a.every((x, i) =>
        typeof x === "number" && typeof b[i] === "number" ? isClose(x, b[i]) : x === b[i],
      );
    }
    const list = items(actual);
    if (!list || list.length !== expected.length) return false;
    return list.every((x, i) => equalsExpected(x, expected[i]));
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || !("dict" in actual)) return false;
    const want = Object.entries(expected as Record<string, unknown>);
    if (actual.dict.length !== want.length) return false;
    const byKey = new Map(actual.dict);
    return want.every(([k, v]) => byKey.has(k) && equalsExpected(byKey.get(k) ?? null, v));
  }
  if (typeof expected === "string") return actual === expected;
  return expected === null && actual === null;
}
