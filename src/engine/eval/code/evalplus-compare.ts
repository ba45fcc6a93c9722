/**
 * EvalPlus's verdict on one case (evalplus/eval/__init__.py `unsafe_execute`, with the special
 * oracles of evalplus/eval/_special_oracle.py), decided in the engine from plain values: exact
 * Python equality, else, where there is a tolerance (the task's atol, or 1e-6 when the expected
 * value is floats), the same type and length and numpy's allclose (rtol 1e-7).
 */
import type { ExactValue } from "./exact-value.ts";
import { itemsOf, numberOf, pyEquals, sameType, toDouble } from "./exact-value.ts";
import { MBPP_OUTPUT_NOT_NONE_TASKS } from "./evalplus-oracle.ts";

/** MBPP+ tasks compared as sets (_special_oracle.py MBPP_OUTPUT_SET_EQ_TASKS). */
const MBPP_OUTPUT_SET_EQ_TASKS = [
  "similar_elements",
  "find_char_long",
  "common_in_nested_lists",
  "extract_singly",
  "larg_nnum",
  "intersection_array",
  "find_dissimilar",
  "Diff",
];

const isFloat = (v: ExactValue) => numberOf(v)?.kind === "float" && typeof v !== "boolean";

/** EvalPlus's is_floats: a float, or a non-empty list or tuple of floats. */
function isFloats(v: ExactValue): boolean {
  if (isFloat(v)) return true;
  const xs =
    Array.isArray(v) || (v !== null && typeof v === "object" && "tuple" in v) ? itemsOf(v) : null;
  return xs !== null && xs.length > 0 && xs.every(isFloat);
}

/** Numbers of an array-like, nested as numpy would read them; null where numpy could not. */
function numbers(v: ExactValue): number[] | null {
  const n = numberOf(v);
  if (n) return [toDouble(n)];
  const xs =
    Array.isArray(v) || (v !== null && typeof v === "object" && "tuple" in v) ? itemsOf(v) : null;
  if (!xs) return null;
  const out: number[] = [];
  for (const x of xs) {
    const inner = numbers(x);
    if (!inner) return null;
    out.push(...inner);
  }
  return out;
}

/** numpy.allclose(out, exp, rtol=1e-7, atol) for same-shaped numbers (nan equals nothing). */
function allClose(out: ExactValue, exp: ExactValue, atol: number): boolean {
  const a = numbers(out);
  const b = numbers(exp);
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i] ?? NaN;
    if (x === y) return true;
    if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
    return Math.abs(x - y) <= atol + 1e-7 * Math.abs(y);
  });
}

/** The set of an iterable's items (a str's characters), as Python's set(x); null if not iterable. */
function asSet(v: ExactValue): ExactValue {
  if (typeof v === "string") return { set: [...v] };
  if (v !== null && typeof v === "object" && "dict" in v) return { set: v.dict.map(([k]) => k) };
  const xs = itemsOf(v);
  if (!xs) return null;
  const unique: ExactValue[] = [];
  for (const x of xs) if (!unique.some((u) => pyEquals(u, x))) unique.push(x);
  return { set: unique };
}

/** _poly(xs, x) = sum(coeff * math.pow(x, i)) (HumanEval/32's oracle). */
function poly(xs: ExactValue, x: number): number {
  return (itemsOf(xs) ?? []).reduce<number>((sum, c, i) => {
    const n = numberOf(c);
    return sum + (n ? toDouble(n) : NaN) * Math.pow(x, i);
  }, 0);
}

/** _surface_Area (Mbpp/581's oracle). */
function surfaceArea(args: ExactValue[]): number {
  const [b, h] = args.map((a) => {
    const n = numberOf(a);
    return n ? toDouble(n) : NaN;
  });
  const base = b ?? NaN;
  const slant = Math.sqrt((base / 2) ** 2 + (h ?? NaN) ** 2);
  // Python's round() rounds half to even.
  const total = base ** 2 + (4 * (base * slant)) / 2;
  const r = Math.round(total);
  return Math.abs(total % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** _digit_distance_nums (Mbpp/558's oracle), on the numbers' decimal digits. */
function digitDistance(args: ExactValue[]): bigint | null {
  const [a, b] = args.map((x) => numberOf(x));
  if (a?.kind !== "int" || b?.kind !== "int") return null;
  let [s, t] = [a.big.toString(), b.big.toString()];
  const width = Math.max(s.length, t.length);
  [s, t] = [s.padStart(width, "0"), t.padStart(width, "0")];
  let total = 0n;
  for (let i = 0; i < width; i++) total += BigInt(Math.abs(Number(s[i]) - Number(t[i])));
  return total;
}

/** Whether `out` passes the case whose arguments are `args` and expected value `exp`. */
export function evalplusPasses(
  o: { dataset: "humaneval" | "mbpp"; name: string; atol: number },
  args: ExactValue[],
  out: ExactValue,
  exp: ExactValue,
): boolean {
  let exact = pyEquals(out, exp);
  let atol = o.atol;
  if (o.dataset === "mbpp") {
    const n = numberOf(out);
    if (o.name === "are_equivalent") exact = true;
    else if (o.name === "sum_div") exact ||= n !== null && toDouble(n) === 0;
    else if (o.name === "surface_Area")
      exact ||= n !== null && Math.abs(toDouble(n) - surfaceArea(args)) <= atol;
    else if (o.name === "digit_distance_nums") {
      const d = digitDistance(args);
      exact ||= d !== null && pyEquals(out, { int: d.toString() });
    } else if (MBPP_OUTPUT_SET_EQ_TASKS.includes(o.name)) {
      const [a, b] = [asSet(out), asSet(exp)];
      exact = a !== null && b !== null && pyEquals(a, b);
    } else if (MBPP_OUTPUT_NOT_NONE_TASKS.includes(o.name))
      exact = typeof out === "boolean" ? pyEquals(out, exp) : pyEquals(exp, out !== null);
  }
  if (o.dataset === "humaneval" && o.name === "find_zero") {
    const n = numberOf(out);
    return n !== null && Math.abs(poly(args[0] ?? null, toDouble(n))) <= atol;
  }
  if (atol === 0 && isFloats(exp)) atol = 1e-6;
  if (exact || atol === 0) return exact;
  if (!sameType(out, exp)) return false;
  const [xs, ys] = [itemsOf(out), itemsOf(exp)];
  if (ys && Array.isArray(exp) !== Array.isArray(out)) return false;
  if (xs && ys && xs.length !== ys.length) return false;
  return allClose(out, exp, atol);
}
