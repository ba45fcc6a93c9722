// Money typed by the user, read in the browser's locale.
import type { Failure } from "../../engine/errors.ts";
import { ErrorCode } from "../../engine/errors.ts";
/** The browser's language (undefined outside a browser: the runtime's default locale). */
export function userLocale(): string | undefined {
  return (globalThis as { navigator?: { language?: string } }).navigator?.language;
}

/** The decimal separator of a locale ("." or ","), from how it writes 1.5. */
export function decimalSeparator(locale?: string): string {
  try {
    const part = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal");
    return part?.value ?? ".";
  } catch {
    return ".";
  }
}

export type MoneyResult = { ok: true; value: number | null } | ({ ok: false } & Failure);

/**
 * Reads an amount of dollars a user typed (a spending cap): blank is none (null); otherwise a
 * non-negative number written with the locale's decimal separator or a point, an optional
 * leading "$", no grouping, above 0. Anything else is refused with a message: a money control fails
 * closed, never reading "0,005" or "abc" as no cap.
 */
export function parseMoney(text: string, locale?: string): MoneyResult {
  const t = text.trim().replace(/^\$\s*/, "");
  if (t === "") return { ok: true, value: null };
  const sep = decimalSeparator(locale);
  const seps = sep === "." ? "." : `.${sep}`;
  const shape = new RegExp(`^\\d*([${seps.replace(/[.]/g, "\\.")}]\\d*)?$`);
  if (!shape.test(t) || !/\d/.test(t)) {
    const example = `0${sep}50`;
    const comma = sep === "." && /^\d*,\d+$/.test(t);
    return {
      ok: false,
      code: ErrorCode.invalid_argument,
      message: comma
        ? `“${text.trim()}” is not an amount here: write the decimal separator as a point (${t.replace(",", ".")}).`
        : `“${text.trim()}” is not an amount of dollars: type a number such as ${example}, or leave it empty for no cap.`,
    };
  }
  const value = Number(t.replace(sep, "."));
  if (!Number.isFinite(value))
    return {
      ok: false,
      code: ErrorCode.invalid_argument,
      message: `“${text.trim()}” is too large.`,
    };
  if (value === 0)
    return {
      ok: false,
      code: ErrorCode.invalid_argument,
      message:
        "A cap of $0 lets nothing run: type an amount above 0, or leave it empty for no cap.",
    };
  return { ok: true, value };
}
