/**
 * The structural comparison of two parsed answers, in the order Math-Verify applies its rules:
 * assignments (`x = 3` against `3`), equations up to a factor, inequalities up to a flip,
 * intervals with their brackets, sets without order, tuples, matrices, then values.
 */
import type { ComputeEngine as Engine } from "@cortex-js/compute-engine";
import type { MathRule } from "./math-profiles.ts";
import type { Json, Tolerance } from "./math-value.ts";
import { args, head, numeric, sameValue, unknowns } from "./math-value.ts";

const RELATIONS = new Set(["Less", "LessEqual", "Greater", "GreaterEqual", "NotEqual"]);
// Not "List": a list (brackets, matrix rows) is compared row by row before collections are.
const COLLECTIONS = new Set(["Set", "Tuple", "Sequence"]);

/** A name on the left of an assignment: `x`, `a_3`, `f(x)`, `(p, q)`, `|AB|`, `A:B`. */
function isName(x: Json): boolean {
  if (typeof x === "string") return !x.startsWith("'");
  const h = head(x);
  if (h === null) return false;
  if (["Tuple", "Abs", "Colon", "Subscript", "Divide"].includes(h)) return args(x).every(isName);
  if (h === "Multiply") return args(x).every((a) => typeof a === "string"); // "AB"
  return /^[a-zA-Z]\w*$/.test(h) && !/^[A-Z][a-z]/.test(h); // f(x), but not Sin(x)
}

/** `x = 3`, `x = 5 + 5 + 1 = 11`: the last value; anything else unchanged. */
function assignedValue(x: Json): Json {
  if (head(x) !== "Equal") return x;
  const sides = args(x);
  return sides.length >= 2 && isName(sides[0]!) ? sides.at(-1)! : x;
}

/** Elements of a collection or union; `x \in S` is S. */
function members(x: Json): Json[] | null {
  const h = head(x);
  return h !== null && (COLLECTIONS.has(h) || h === "Union") ? args(x) : null;
}

/** Sides of a relation, with > and >= turned round into < and <=. */
function relation(x: Json): { op: string; sides: Json[] } | null {
  const h = head(x);
  if (h === null || !RELATIONS.has(h)) return null;
  const sides = args(x);
  if (h === "Greater") return { op: "Less", sides: [...sides].reverse() };
  if (h === "GreaterEqual") return { op: "LessEqual", sides: [...sides].reverse() };
  return { op: h, sides };
}

/** An interval from the engine's ["Interval", ["Open", a], b] form. */
function interval(x: Json): { lo: Json; hi: Json; loOpen: boolean; hiOpen: boolean } | null {
  if (head(x) !== "Interval") return null;
  const [lo, hi] = args(x);
  if (lo === undefined || hi === undefined) return null;
  const open = (e: Json) => head(e) === "Open";
  const inner = (e: Json) => (open(e) ? args(e)[0]! : e);
  return { lo: inner(lo), hi: inner(hi), loOpen: open(lo), hiOpen: open(hi) };
}

/**
 * A pair read as an interval to compare with `iv`: `[a, b]` (which the engine reads as a list) is
 * closed; `(a, b)` (a tuple) is open, and only compared with an open interval, as Math-Verify does.
 */
function pairAgainst(iv: Range, x: Json): Range | null {
  if (head(x) === "Tuple" && args(x).length === 2 && iv.loOpen && iv.hiOpen)
    return tupleInterval(x);
  return closedPair(x);
}

/** `[a, b]`, which the engine reads as a list of two, as the closed interval. */
function closedPair(x: Json): { lo: Json; hi: Json; loOpen: boolean; hiOpen: boolean } | null {
  if (head(x) !== "List" || args(x).length !== 2) return null;
  const [lo, hi] = args(x);
  return { lo: lo!, hi: hi!, loOpen: false, hiOpen: false };
}

type Range = { lo: Json; hi: Json; loOpen: boolean; hiOpen: boolean };

/** `a < x <= b` (one chain, or the engine's And of two relations) as the range of its name. */
function rangeOf(x: Json): Range | null {
  const rel = relation(x);
  if (rel && rel.sides.length === 3 && isName(rel.sides[1]!) && rel.op.startsWith("Less")) {
    const open = rel.op === "Less";
    return { lo: rel.sides[0]!, hi: rel.sides[2]!, loOpen: open, hiOpen: open };
  }
  if (head(x) !== "And" || args(x).length !== 2) return null;
  const [r1, r2] = args(x).map(relation);
  if (!r1 || !r2 || r1.sides.length !== 2 || r2.sides.length !== 2) return null;
  if (!r1.op.startsWith("Less") || !r2.op.startsWith("Less")) return null;
  const name = r1.sides[1]!;
  if (!isName(name) || JSON.stringify(name) !== JSON.stringify(r2.sides[0])) return null;
  return { lo: r1.sides[0]!, hi: r2.sides[1]!, loOpen: r1.op === "Less", hiOpen: r2.op === "Less" };
}

/** `(a, b)` read as the open interval. */
function tupleInterval(x: Json): { lo: Json; hi: Json; loOpen: boolean; hiOpen: boolean } {
  const [lo, hi] = args(x);
  return { lo: lo!, hi: hi!, loOpen: true, hiOpen: true };
}

/** A one-column or one-row matrix (rows of the engine's List) as the List of its values. */
function asVector(x: Json): Json {
  if (head(x) !== "List") return x;
  const rows = args(x);
  if (rows.length === 1 && head(rows[0]!) === "List") return rows[0]!;
  if (rows.length > 1 && rows.every((r) => head(r) === "List" && args(r).length === 1))
    return ["List", ...rows.map((r) => args(r)[0]!)];
  return x;
}

/** A number written in the text with decimals: its value and its places; null otherwise. */
function decimalLiteral(x: Json): { value: number; places: number } | null {
  const text =
    typeof x === "number"
      ? String(x)
      : typeof x === "object" && x && "num" in x
        ? String(x.num)
        : null;
  const m = text === null ? null : /^-?\d*\.(\d+)$/.exec(text);
  return m ? { value: Number(text), places: m[1]!.length } : null;
}

const IRRATIONAL_HEADS = /"(?:Sqrt|Root|Pi|ExponentialE|Exp|Ln|Log|Sin|Cos|Tan|Sec|Csc|Cot|Power)"/;

export class Comparer {
  constructor(
    private readonly ce: Engine,
    private readonly t: Tolerance,
    private readonly decimal: boolean,
    private readonly rules: ReadonlySet<MathRule>,
  ) {}

  /** True when the answer `b` says what the reference `a` says. */
  same(a0: Json, b0: Json, depth = 0): boolean {
    if (depth > 8) return false;
    if (head(a0) === "Equal" && head(b0) === "Equal") return this.sameEquation(a0, b0, depth);
    const a = this.unwrap(a0);
    const b = this.unwrap(b0);
    if (JSON.stringify(a) === JSON.stringify(b)) return true;
    const ha = head(a);
    const hb = head(b);
    const loose = this.looseForms(a, b, depth);
    if (loose !== null) return loose;
    const range = this.rangeAgainstInterval(a, b, depth) ?? this.rangeAgainstInterval(b, a, depth);
    if (range !== null) return range;
    const ra = relation(a);
    const rb = relation(b);
    if (ra || rb) return !!ra && !!rb && this.sameRelation(ra, rb, depth);
    const ia = interval(a) ?? (interval(b) ? pairAgainst(interval(b)!, a) : null);
    const ib = interval(b) ?? (ia ? pairAgainst(ia, b) : null);
    if (ia && ib)
      return (
        ia.loOpen === ib.loOpen &&
        ia.hiOpen === ib.hiOpen &&
        this.same(ia.lo, ib.lo, depth + 1) &&
        this.same(ia.hi, ib.hi, depth + 1)
      );
    // (unwrap took any matrix to its list of rows)
    if (ha === "List" || hb === "List") return this.sameRows(a, b, depth);
    const ma = members(a);
    const mb = members(b);
    if (ma || mb) return !!ma && !!mb && this.sameMembers(ha!, ma, hb!, mb, depth);
    if (ha === "Colon" && hb === "Colon") return this.sameInOrder(args(a), args(b), depth);
    if ([ha, hb].some((h) => h !== null && ["Interval", "Colon", "Equal"].includes(h)))
      return false;
    return (
      sameValue(this.ce, a, b, this.t, this.decimal) ||
      (this.rules.has("rounded-irrational") && (this.rounded(a, b) || this.rounded(b, a)))
    );
  }

  /**
   * The profile's forgiving forms, before the structural rules: a bracketed single value, a list
   * in brackets against a bare list, a column or row matrix against a tuple or list, and (Qwen)
   * round against square brackets. Null when none applies.
   */
  private looseForms(a: Json, b: Json, depth: number): boolean | null {
    const has = (r: MathRule) => this.rules.has(r);
    const isList = (x: Json) => head(x) === "List";
    if (has("brackets")) {
      const single = (x: Json) => isList(x) && args(x).length === 1 && !isList(args(x)[0]!);
      if (single(a) && !isList(b)) return this.same(args(a)[0]!, b, depth + 1);
      if (single(b) && !isList(a)) return this.same(a, args(b)[0]!, depth + 1);
      if (isList(a) && head(b) === "Set")
        return this.sameMembers("Set", args(a), "Set", args(b), depth);
      if (isList(b) && head(a) === "Set")
        return this.sameMembers("Set", args(a), "Set", args(b), depth);
    }
    // a matrix of one column or one row against a tuple or list of its values, in order
    const [va, vb] = [asVector(a), asVector(b)];
    const flat = (x: Json) => (head(x) === "Tuple" ? ["List", ...args(x)] : x);
    // (one side only: a column matrix is not a row matrix)
    const matrixSide =
      (JSON.stringify(va) !== JSON.stringify(a)) !== (JSON.stringify(vb) !== JSON.stringify(b));
    if (has("column-vector") && matrixSide) {
      const [fa, fb] = [flat(va), flat(vb)];
      if (isList(fa) && isList(fb) && !args(fa).some(isList) && !args(fb).some(isList))
        return this.sameInOrder(args(fa), args(fb), depth);
    }
    if (has("loose-brackets")) {
      const pair = (x: Json) =>
        interval(x) ??
        (["Tuple", "List"].includes(head(x) ?? "")
          ? { lo: args(x)[0]!, hi: args(x)[1]!, n: args(x).length }
          : null);
      const [pa, pb] = [pair(a), pair(b)];
      if (pa && pb && (!("n" in pa) || pa.n === 2) && (!("n" in pb) || pb.n === 2))
        return this.same(pa.lo, pb.lo, depth + 1) && this.same(pa.hi, pb.hi, depth + 1);
    }
    return null;
  }

  /** "rounded-irrational": `d` written with n decimals is `exact` (irrational) rounded to n places. */
  private rounded(d: Json, exact: Json): boolean {
    const lit = decimalLiteral(d);
    if (
      !lit ||
      lit.places < 2 ||
      decimalLiteral(exact) ||
      !IRRATIONAL_HEADS.test(JSON.stringify(exact))
    )
      return false;
    if (unknowns(this.ce, exact).length > 0) return false;
    const v = numeric(this.ce, exact, {});
    if (!v || Math.abs(v[1]) > 1e-12) return false;
    // a rational value in disguise (`\sqrt{4}`, `\sin(\pi/6)`) is compared exactly, not rounded
    for (let q = 1; q <= 1000; q++)
      if (Math.abs(v[0] * q - Math.round(v[0] * q)) < 1e-9) return false;
    return Math.round(v[0] * 10 ** lit.places) === Math.round(lit.value * 10 ** lit.places);
  }

  /** `0 < x < 1` against `(0, 1)`: the bounds and whether each is open; null when not that shape. */
  private rangeAgainstInterval(r: Json, i: Json, depth: number): boolean | null {
    const range = rangeOf(r);
    if (!range) return null;
    const iv =
      interval(i) ??
      closedPair(i) ??
      (head(i) === "Tuple" && args(i).length === 2 ? tupleInterval(i) : null);
    if (!iv) return null;
    return (
      iv.loOpen === range.loOpen &&
      iv.hiOpen === range.hiOpen &&
      this.same(range.lo, iv.lo, depth + 1) &&
      this.same(range.hi, iv.hi, depth + 1)
    );
  }

  private unwrap(x: Json): Json {
    let out = this.rules.has("assignment") ? assignedValue(x) : x;
    if (head(out) === "Element" && args(out).length === 2) out = args(out)[1]!;
    if (head(out) === "Matrix") out = args(out)[0] ?? out;
    return out;
  }

  private sameInOrder(a: Json[], b: Json[], depth: number): boolean {
    return a.length === b.length && a.every((x, i) => this.same(x, b[i]!, depth + 1));
  }

  /** Order-free: every element of one matches a distinct element of the other. */
  private sameUnordered(a: Json[], b: Json[], depth: number): boolean {
    if (a.length !== b.length) return false;
    const used = new Set<number>();
    return a.every((x) => {
      const j = b.findIndex((y, k) => !used.has(k) && this.same(x, y, depth + 1));
      if (j < 0) return false;
      used.add(j);
      return true;
    });
  }

  /**
   * A set against a set or a union: order-free. A tuple against a tuple: in order. A set (a bare
   * list) against a tuple: in the set's sorted order, as Math-Verify compares them.
   */
  private sameMembers(ha: string, a: Json[], hb: string, b: Json[], depth: number): boolean {
    const ordered = (h: string) => h === "Tuple" || h === "Sequence";
    if (ordered(ha) && ordered(hb)) return this.sameInOrder(a, b, depth);
    if (ordered(ha) !== ordered(hb) && this.rules.has("unordered-lists")) {
      const [tuple, set] = ordered(ha) ? [a, b] : [b, a];
      return this.sameInOrder(tuple, this.sorted(set), depth);
    }
    return this.rules.has("unordered-lists")
      ? this.sameUnordered(a, b, depth)
      : this.sameInOrder(a, b, depth);
  }

  private sorted(xs: Json[]): Json[] {
    const key = (x: Json) => numeric(this.ce, x, {})?.[0] ?? Number.NaN;
    return [...xs].sort((x, y) => key(x) - key(y));
  }

  private sameRows(a: Json, b: Json, depth: number): boolean {
    const rows = (x: Json) => (head(x) === "List" ? args(x) : null);
    const ra = rows(a);
    const rb = rows(b);
    if (!ra || !rb || ra.length !== rb.length) return false;
    return ra.every((r, i) => this.same(r, rb[i]!, depth + 1)); // rows of rows come back here
  }

  /** Two equations: the same assignment, or `l - r` proportional to the other's `l - r`. */
  private sameEquation(a: Json, b: Json, depth: number): boolean {
    const [la, ra] = [args(a)[0]!, args(a).at(-1)!];
    const [lb, rb] = [args(b)[0]!, args(b).at(-1)!];
    if (JSON.stringify(la) === JSON.stringify(lb) && this.same(ra, rb, depth + 1)) return true;
    return this.proportional(["Subtract", la, ra], ["Subtract", lb, rb], false);
  }

  /** Two inequalities: same operator, and `hi - lo` a positive multiple of the other's. */
  private sameRelation(
    a: { op: string; sides: Json[] },
    b: { op: string; sides: Json[] },
    depth: number,
  ): boolean {
    if (a.op !== b.op || a.sides.length !== b.sides.length) return false;
    if (a.sides.length > 2) return this.sameInOrder(a.sides, b.sides, depth);
    const d = (s: Json[]): Json => ["Subtract", s[1]!, s[0]!];
    return this.proportional(d(a.sides), d(b.sides), a.op !== "NotEqual");
  }

  /** `x = k·y` for one constant k (k > 0 when `positive`), checked at sample points. */
  private proportional(x: Json, y: Json, positive: boolean): boolean {
    const names = [...new Set([...unknowns(this.ce, x), ...unknowns(this.ce, y)])];
    if (names.length === 0) return false;
    let k: number | null = null;
    for (let p = 0; p < 3; p++) {
      const at = Object.fromEntries(names.map((n, i) => [n, 0.37 + 0.61 * p + 0.29 * i]));
      const vx = numeric(this.ce, x, at);
      const vy = numeric(this.ce, y, at);
      if (!vx || !vy || Math.abs(vy[0]) < 1e-12) return false;
      const r = vx[0] / vy[0];
      if (k === null) k = r;
      else if (Math.abs(r - k) > 1e-9 * Math.max(1, Math.abs(k))) return false;
    }
    return k !== null && k !== 0 && (!positive || k > 0);
  }
}
