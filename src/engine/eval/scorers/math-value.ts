/**
 * Parsing a cleaned answer into a MathJSON expression with `@cortex-js/compute-engine`, and the
 * structural comparison of two of them: numbers with tolerance, expressions by value at sample
 * points, tuples, sets, intervals, matrices, equations and inequalities by structure.
 */
import type { ComputeEngine as Engine } from "@cortex-js/compute-engine";
import { timeOfDay } from "./math-forms.ts";
import { cleanAnswer } from "./math-latex.ts";
import type { MathRule } from "./math-profiles.ts";
import { VERSION_2, rulesKey } from "./math-profiles.ts";

/** A MathJSON expression as the engine writes it. */
export type Json = number | string | { num: string } | Json[] | { [k: string]: unknown };

/** One side of a comparison: its expression and what the text said about it. */
export interface MathValue {
  json: Json;
  /** The cleaned text, for text answers (`\text{odd}`) and for the record. */
  text: string;
  percent: boolean;
  /** Written with a decimal point: compared by rounding, as Math-Verify does. */
  decimal: boolean;
  /** For `x = 3`, `(p, q) = (3, 2)`, `S_1 : S = 7 : 32`: the value assigned to the name. */
  assigned?: Json;
  /** Under the "times" rule, a time of day's minute of the day (`3:00 P.M.` is 900). */
  time?: number;
}

/** The left side of an assignment: names, subscripts, `f(x)`, `(p,q)`, `|AB|`, `A:B`, `\frac{NO}{BO}`. */
const NAME_LHS = /^(?:[\s{}_^|:(),']|[A-Za-z]|\\(?:frac|overline|angle|mathrm)\b|_\{?\w+\}?)+$/;

/** The value assigned when `text` is `name = value` (or `name = ... = value`). */
function assignedText(text: string): string | null {
  const first = text.indexOf("=");
  if (first <= 0 || /[<>]|\\[lg]e|\\neq/.test(text)) return null;
  const lhs = text.slice(0, first);
  if (!NAME_LHS.test(lhs) || !/[A-Za-z]/.test(lhs)) return null;
  return text.slice(text.lastIndexOf("=") + 1) || null;
}

let engine: Promise<Engine> | null = null;

/** The compute engine, loaded once and only when the first math answer is scored. */
export function computeEngine(): Promise<Engine> {
  engine ??= import("@cortex-js/compute-engine").then((m) => new m.ComputeEngine());
  return engine;
}

const head = (x: Json | null): string | null =>
  Array.isArray(x) && typeof x[0] === "string" ? x[0] : null;
const args = (x: Json): Json[] => (Array.isArray(x) ? x.slice(1) : []);
/** (the engine writes a difference as a sum) */
const MATRIX_OPS: (string | null)[] = ["Add", "Multiply", "Negate"];

/** True when the text is a list at its top level: "1, 2, 3" but not "(1, 2)" or "f(1, 2)". */
function isBareList(s: string): boolean {
  let depth = 0;
  let commas = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if ("([{".includes(c))
      depth++; // (also the brace of "\\{")
    else if (")]}".includes(c)) depth--;
    else if ((c === "," || c === ";") && depth === 0) commas++;
  }
  return commas > 0;
}

/** How many parsed texts `parseMath` keeps: a batch's references and its common answers. */
const PARSED_KEPT = 1024;
/**
 * Texts parsed so far, oldest first. A reward batch parses the same reference once per rollout
 * of its question (and the same answer as often), and parsing is most of what scoring costs.
 * Callers never change a MathValue, so one object can answer every request for its text.
 */
const parsed = new Map<string, Promise<MathValue | null>>();

/**
 * Parses one answer under a profile's rules (by default version 2's); `null` when the engine
 * cannot read it at all.
 */
export function parseMath(
  raw: string,
  rules: ReadonlySet<MathRule> = VERSION_2.rules,
): Promise<MathValue | null> {
  const key = `${rulesKey(rules)}\n${raw}`;
  const kept = parsed.get(key);
  if (kept) return kept;
  const made = parseMathText(raw, rules);
  if (parsed.size >= PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
  parsed.set(key, made);
  // A parse that failed (the engine could not load) is tried again next time, not remembered.
  made.catch(() => parsed.delete(key));
  return made;
}

async function parseMathText(raw: string, rules: ReadonlySet<MathRule>): Promise<MathValue | null> {
  const time = rules.has("times") ? timeOfDay(raw) : null;
  const value = await parseLatex(raw, rules);
  if (time === null) return value;
  return { ...(value ?? { json: time, text: raw.trim(), percent: false, decimal: false }), time };
}

async function parseLatex(raw: string, rules: ReadonlySet<MathRule>): Promise<MathValue | null> {
  const ce = await computeEngine();
  const { latex, percent } = cleanAnswer(raw, rules);
  if (latex === "") return null;
  const decimal = /\d\.\d/.test(latex); // (cleanAnswer made ".5" 0.5)
  const read = (s: string): Json | null => {
    try {
      const e = ce.parse(s);
      return e.isValid ? (e.json as Json) : null; // (canonical: no Delimiter or Hold left)
    } catch {
      return null;
    }
  };
  // "a \pm b": the set of both branches
  if (latex.includes("\\pm")) {
    const branches = [read(latex.replace(/\\pm/g, "+")), read(latex.replace(/\\pm/g, "-"))];
    if (!branches.includes(null))
      return { json: ["Set", ...(branches as Json[])], text: latex, percent, decimal };
  }
  const readAll = (s: string): Json | null =>
    (isBareList(s) ? read(`\\{${s.replace(/;/g, ",")}\\}`) : null) ?? read(s);
  const json = evaluateMatrices(ce, readAll(latex));
  const rhs = isBareList(latex) || !rules.has("assignment") ? null : assignedText(latex);
  let assigned = rhs === null ? null : readAll(rhs);
  // "5 \times 6 \times 4 = 120": a computation without unknowns gives its last value
  // (a name on the left is an unknown, so this never overrides an assignment)
  if (head(json) === "Equal" && unknowns(ce, json!).length === 0) assigned = args(json!).at(-1)!;
  if (json === null && assigned === null) return null;
  return {
    json: json ?? assigned!,
    text: latex,
    percent,
    decimal,
    ...(assigned !== null ? { assigned } : {}),
  };
}

/** A sum or product of matrices is its value: `A + B` against the matrix it makes. */
function evaluateMatrices(ce: Engine, x: Json | null): Json | null {
  if (!MATRIX_OPS.includes(head(x)) || !JSON.stringify(x).includes('"Matrix"')) return x;
  try {
    return ce.box(x as Parameters<Engine["box"]>[0]).evaluate().json as Json;
  } catch {
    return x;
  }
}

/** Evaluates numerically at the given point; null when not a finite (complex) number there. */
function numeric(ce: Engine, x: Json, at: Record<string, number>): [number, number] | null {
  try {
    const e = ce.box(x as Parameters<Engine["box"]>[0]);
    const v = e.subs(Object.fromEntries(Object.entries(at).map(([k, v]) => [k, ce.number(v)]))).N();
    const re = v.re;
    const im = v.im;
    return Number.isFinite(re) && Number.isFinite(im) ? [re, im] : null;
  } catch {
    return null;
  }
}

function unknowns(ce: Engine, x: Json): string[] {
  try {
    return [...ce.box(x as Parameters<Engine["box"]>[0]).unknowns];
  } catch {
    return [];
  }
}

/**
 * Sample points for expressions with unknowns: fixed, so a verdict never changes between runs; one
 * negative, so `x` is not `|x|` nor `\sqrt{x^2}` (Math-Verify's sympy takes a symbol as complex).
 */
const POINTS = [0.5772156649, 1.6180339887, 2.7182818285, -1.3247179572].map(
  (seed, p) => (name: string, i: number) => seed + 0.1 * i + 0.013 * p * name.length,
);

export interface Tolerance {
  /** Decimal places compared when either side is written as a decimal (Math-Verify's rounding). */
  precision: number;
  relTol: number;
}

const rounded = (v: number, p: number) => Math.round(v * 10 ** p);

function closeNumbers(a: number, b: number, t: Tolerance, decimal: boolean): boolean {
  if (Math.abs(a - b) <= t.relTol * Math.max(1, Math.abs(a), Math.abs(b))) return true;
  return decimal && rounded(a, t.precision) === rounded(b, t.precision);
}

/** Equal by value: at a point when both are numbers, at sample points when they have unknowns. */
function sameValue(ce: Engine, a: Json, b: Json, t: Tolerance, decimal: boolean): boolean {
  const names = [...new Set([...unknowns(ce, a), ...unknowns(ce, b)])];
  const points = names.length === 0 ? [{}] : POINTS.map((f) => fromNames(names, f));
  let compared = 0;
  for (const at of points) {
    const x = numeric(ce, a, at);
    const y = numeric(ce, b, at);
    if (x === null || y === null) {
      if ((x === null) !== (y === null)) return false;
      continue;
    }
    compared++;
    if (!closeNumbers(x[0], y[0], t, decimal) || !closeNumbers(x[1], y[1], t, decimal))
      return false;
  }
  return compared > 0 || JSON.stringify(a) === JSON.stringify(b);
}

function fromNames(names: string[], f: (n: string, i: number) => number): Record<string, number> {
  return Object.fromEntries(names.map((n, i) => [n, f(n, i)]));
}

export { args, head, isBareList, numeric, sameValue, unknowns };
