import type { z } from "zod";

/** A plain JSON object (not an array, not null): the shape every file we read starts from. */
export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** A piece of a file cut to `max` characters: messages never repeat more than that of it. */
export function clip(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The first few validation problems, each with the path to the field, for a user-facing message.
 * Every path segment and message is clipped: a file's 10 MB key name is not repeated back.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => {
      const path = i.path.length ? i.path.map((p) => clip(String(p), 40)).join(".") : "(top level)";
      return `${path}: ${clip(i.message, 120)}`;
    })
    .join("; ");
}
