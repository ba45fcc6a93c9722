/** Turns a math answer as models write it into a plain expression: LaTeX, units and separators out. */
import { braceGroup } from "./latex-braces.ts";

function replaceBraced(
  text: string,
  command: string,
  arity: number,
  f: (args: string[]) => string,
): string {
  let out = text;
  for (let guard = 0; guard < 50; guard++) {
    const at = out.indexOf(command);
    if (at < 0) return out;
    let i = at + command.length;
    const args: string[] = [];
    while (args.length < arity) {
      while (out[i] === " ") i++;
      if (out[i] !== "{") {
        // \frac12 style: single-character arguments
        if (out[i] === undefined) return out;
        args.push(out[i]!);
        i++;
        continue;
      }
      const g = braceGroup(out, i + 1);
      args.push(g.closed ? g.inner : g.inner.slice(0, -1));
      i = g.end;
    }
    out = out.slice(0, at) + f(args) + out.slice(i);
  }
  return out;
}

const UNIT_WORDS =
  /\b(?:dollars?|cents?|euros?|pounds?|km\/h|mph|m\/s|km|cm|mm|m|kg|g|mg|l|ml|litres?|liters?|hours?|hrs?|h|minutes?|mins?|seconds?|secs?|s|days?|weeks?|years?|units?|square|sq|cubic|cups?|people|students|girls|boys|buses|rolls|flowers|percent|degrees?|apples|items|meters?|metres?|inches|feet|ft|miles?)\b/gi;

/** A normalised expression, plus whether it was a percentage. */
export function normaliseMath(raw: string): { expr: string; percent: boolean } {
  let s = raw.trim();
  s = s.replace(/^\$+|\$+$/g, "").replace(/\\\(|\\\)|\\\[|\\\]/g, "");
  // \textbf before \text, whose name it starts with ("\textbf{7}" was "b f7")
  s = replaceBraced(s, "\\textbf", 1, ([a]) => a!);
  s = replaceBraced(s, "\\text", 1, ([a]) => ` ${a} `);
  s = replaceBraced(s, "\\mathrm", 1, ([a]) => ` ${a} `);
  for (const f of ["\\dfrac", "\\tfrac", "\\frac"])
    s = replaceBraced(s, f, 2, ([a, b]) => `((${a})/(${b}))`);
  s = replaceBraced(s, "\\sqrt", 1, ([a]) => `sqrt(${a})`);
  s = s
    .replace(/\\left|\\right|\\!|\\,|\\;|\\:|\\quad|~/g, "")
    .replace(/\\(?:cdot|times)/g, "*")
    .replace(/\\div/g, "/")
    .replace(/\\pi/g, "pi")
    .replace(/\^\{([^{}]*)\}/g, "^($1)")
    .replace(/\\%/g, "%")
    .replace(/\\\$/g, "")
    .replace(/[{}]/g, "")
    .replace(/−/g, "-");
  const percent = /%|\bpercent\b/i.test(s);
  s = s.replace(/%/g, "");
  // "x = 5" or "n=5": keep the right-hand side.
  const eq = s.lastIndexOf("=");
  if (eq >= 0) s = s.slice(eq + 1);
  s = s.replace(/(\d),(?=\d{3}(?:\D|$))/g, "$1"); // thousands separators
  s = s.replace(/^[£€$]|(?<=\s)[£€$]/g, "");
  s = s
    .replace(UNIT_WORDS, " ")
    .replace(/²|³/g, "")
    .replace(/\s\^\(?\d\)?/g, " ");
  s = s
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.,;:]$/, "")
    .trim();
  return { expr: s, percent };
}

/** The number an expression denotes when it is a plain (possibly signed, decimal) number. */
export function plainNumber(expr: string): number | null {
  const t = expr.replace(/\s+/g, "");
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return Number(t);
  const frac = /^\(*([-+]?\d+(?:\.\d+)?)\)*\/\(*([-+]?\d+(?:\.\d+)?)\)*$/.exec(t);
  if (frac) return Number(frac[1]) / Number(frac[2]);
  return null;
}
