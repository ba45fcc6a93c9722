/**
 * How a stdio test's output is compared with the expected one:
 * - `lines` (the default): trailing whitespace cut from every line, trailing blank lines dropped,
 *   then the texts must be equal;
 * - `livecodebench`: as LiveCodeBench's grade_stdio (lcb_runner/evaluation/testing_util.py): both
 *   texts stripped, split into lines, each line stripped; the line counts must agree, and each line
 *   pair must be equal as text or, failing that, as lists of exact decimals (Python's `Decimal` of
 *   each whitespace-separated token: "1.0" equals "1", "1e2" equals "100", NaN equals nothing).
 */
import { normaliseOutput } from "./tests-schema.ts";

export type StdioCompare = "lines" | "livecodebench";

// Python's str.strip() and str.split() whitespace (ASCII; the tests are ASCII in practice).
const WS = /[ \t\n\r\v\f]+/;
const strip = (s: string) => s.replace(/^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g, "");

/** A finite decimal as (sign, digits without leading or trailing zeros, exponent); or infinity. */
type Dec =
  { kind: "finite"; sign: number; digits: string; exp: number } | { kind: "inf"; sign: number };

const DECIMAL =
  /^([+-]?)(?:(\d+(?:_\d+)*)(?:\.(\d+(?:_\d+)*)?)?|\.(\d+(?:_\d+)*))(?:[eE]([+-]?\d+(?:_\d+)*))?$/;

/** A token as Python's `Decimal(token)` reads it; null where it raises or where it is NaN. */
function decimal(token: string): Dec | null {
  const t = token.toLowerCase();
  const inf = /^([+-]?)(inf|infinity)$/.exec(t);
  if (inf) return { kind: "inf", sign: inf[1] === "-" ? -1 : 1 };
  const m = DECIMAL.exec(token);
  if (!m) return null;
  const int = (m[2] ?? "").replace(/_/g, "");
  const frac = (m[3] ?? m[4] ?? "").replace(/_/g, "");
  const e = Number((m[5] ?? "0").replace(/_/g, ""));
  let digits = (int + frac).replace(/^0+/, "");
  let exp = e - frac.length;
  const trailing = /0*$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  exp += trailing;
  // Zero is zero whatever its sign and exponent (Decimal("-0.0") == Decimal("0")).
  if (!digits) return { kind: "finite", sign: 1, digits: "", exp: 0 };
  return { kind: "finite", sign: m[1] === "-" ? -1 : 1, digits, exp };
}

function sameDecimal(a: Dec, b: Dec): boolean {
  if (a.kind !== b.kind || a.sign !== b.sign) return false;
  if (a.kind === "inf" || b.kind === "inf") return true;
  return a.digits === b.digits && a.exp === b.exp;
}

function decimalsEqual(a: string, b: string): boolean {
  const ta = a.split(WS).filter(Boolean);
  const tb = b.split(WS).filter(Boolean);
  if (ta.length !== tb.length) return false;
  for (let i = 0; i < ta.length; i++) {
    const x = decimal(ta[i]!);
    const y = decimal(tb[i]!);
    if (!x || !y || !sameDecimal(x, y)) return false;
  }
  return true;
}

function livecodebenchEqual(actual: string, expected: string): boolean {
  const lines = (s: string) => strip(s.replace(/\r\n?/g, "\n")).split("\n").map(strip);
  const a = lines(actual);
  const b = lines(expected);
  if (a.length !== b.length) return false;
  return a.every((line, i) => line === b[i] || decimalsEqual(line, b[i]!));
}

/** Whether a program's stdout passes against the expected output under `compare`. */
export function stdoutMatches(actual: string, expected: string, compare: StdioCompare): boolean {
  return compare === "livecodebench"
    ? livecodebenchEqual(actual, expected)
    : normaliseOutput(actual) === normaliseOutput(expected);
}
