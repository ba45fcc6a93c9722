/**
 * Python values with their exact types, as the harness writes them for an `exact` function run
 * (harness.ts `_encode(exact=True)`): the tagged encoding of value.ts, except that a dict key that
 * is not a str is itself a tagged value. Used where both sides of a comparison are Python values
 * (EvalPlus: the canonical solution's output against the answer's), so equality here is Python's
 * `==`, decided in the engine and never in the answer's interpreter.
 */
import { z } from "zod";

export type ExactValue =
  | null
  | boolean
  | string
  | ExactValue[]
  | { int: string }
  | { float: number | string }
  | { tuple: ExactValue[] }
  | { set: ExactValue[] }
  | { dict: [ExactValue, ExactValue][] };

export const exactValueSchema: z.ZodType<ExactValue> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.string(),
    z.array(exactValueSchema),
    z.strictObject({ int: z.string().regex(/^-?\d+$/) }),
    z.strictObject({ float: z.union([z.number(), z.enum(["nan", "inf", "-inf"])]) }),
    z.strictObject({ tuple: z.array(exactValueSchema) }),
    z.strictObject({ set: z.array(exactValueSchema) }),
    z.strictObject({ dict: z.array(z.tuple([exactValueSchema, exactValueSchema])) }),
  ]),
);

type Num = { kind: "int"; big: bigint } | { kind: "float"; x: number };

/** A bool, int or float as a number (Python's numeric tower: True == 1 == 1.0); else null. */
export function numberOf(v: ExactValue): Num | null {
  if (typeof v === "boolean") return { kind: "int", big: v ? 1n : 0n };
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  if ("int" in v) return { kind: "int", big: BigInt(v.int) };
  if ("float" in v) {
    const f = v.float;
    if (typeof f === "number") return { kind: "float", x: f };
    return { kind: "float", x: f === "inf" ? Infinity : f === "-inf" ? -Infinity : NaN };
  }
  return null;
}

/** A number as a double (what numpy compares). */
export function toDouble(n: Num): number {
  return n.kind === "int" ? Number(n.big) : n.x;
}

function numEq(a: Num, b: Num): boolean {
  if (a.kind === "int" && b.kind === "int") return a.big === b.big;
  if (a.kind === "float" && b.kind === "float") return a.x === b.x;
  // int against float: Python compares exactly, so 2**53 + 1 != 2.0**53.
  const [i, f] =
    a.kind === "int" ? [a.big, (b as { x: number }).x] : [(b as { big: bigint }).big, a.x];
  return Number.isInteger(f) && BigInt(f) === i;
}

/** The kind of container a value is, or null for a scalar. */
function shape(v: ExactValue): "list" | "tuple" | "set" | "dict" | null {
  if (Array.isArray(v)) return "list";
  if (v === null || typeof v !== "object") return null;
  if ("tuple" in v) return "tuple";
  if ("set" in v) return "set";
  if ("dict" in v) return "dict";
  return null;
}

/** The items of a list, tuple or set. */
export function itemsOf(v: ExactValue): ExactValue[] | null {
  if (Array.isArray(v)) return v;
  if (v !== null && typeof v === "object") {
    if ("tuple" in v) return v.tuple;
    if ("set" in v) return v.set;
  }
  return null;
}

function unorderedEq(a: ExactValue[], b: ExactValue[]): boolean {
  if (a.length !== b.length) return false;
  const used = new Array<boolean>(b.length).fill(false);
  return a.every((x) => {
    const j = b.findIndex((y, k) => !used[k] && pyEquals(x, y));
    if (j < 0) return false;
    used[j] = true;
    return true;
  });
}

/** Python's `a == b` for plain values (nan equals nothing; a list never equals a tuple). */
export function pyEquals(a: ExactValue, b: ExactValue): boolean {
  const na = numberOf(a);
  const nb = numberOf(b);
  if (na || nb) return na !== null && nb !== null && numEq(na, nb);
  if (a === null || b === null || typeof a === "string" || typeof b === "string") return a === b;
  const sa = shape(a);
  if (sa !== shape(b)) return false;
  if (sa === "list" || sa === "tuple") {
    const x = itemsOf(a) ?? [];
    const y = itemsOf(b) ?? [];
    return x.length === y.length && x.every((v, i) => pyEquals(v, y[i] ?? null));
  }
  if (sa === "set") return unorderedEq(itemsOf(a) ?? [], itemsOf(b) ?? []);
  if (sa === "dict" && "dict" in (a as object) && "dict" in (b as object)) {
    const x = (a as { dict: [ExactValue, ExactValue][] }).dict;
    const y = (b as { dict: [ExactValue, ExactValue][] }).dict;
    if (x.length !== y.length) return false;
    return x.every(([k, v]) => y.some(([k2, v2]) => pyEquals(k, k2) && pyEquals(v, v2)));
  }
  return false;
}

/** Python's `type(a) == type(b)` for plain values. */
export function sameType(a: ExactValue, b: ExactValue): boolean {
  const kind = (v: ExactValue) =>
    v === null
      ? "none"
      : typeof v === "boolean"
        ? "bool"
        : typeof v === "string"
          ? "str"
          : (shape(v) ?? numberOf(v)?.kind ?? "other");
  return kind(a) === kind(b);
}

function floatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const s = String(x);
  return /[.e]/.test(s) ? s.replace(/e\+?/, "e+").replace("e+-", "e-") : `${s}.0`;
}

/** Python's repr of a plain value, near enough to read in a failure (a string's quotes aside). */
export function pyRepr(v: ExactValue): string {
  if (v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "string")
    return `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n")}'`;
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  if ("int" in v) return v.int;
  if ("float" in v) return typeof v.float === "number" ? floatRepr(v.float) : v.float;
  if ("tuple" in v)
    return v.tuple.length === 1
      ? `(${pyRepr(v.tuple[0] ?? null)},)`
      : `(${v.tuple.map(pyRepr).join(", ")})`;
  if ("set" in v) return v.set.length ? `{${v.set.map(pyRepr).join(", ")}}` : "set()";
  return `{${v.dict.map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(", ")}}`;
}
