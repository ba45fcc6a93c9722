import type { z } from "zod";

/** A plain JSON object (not an array, not null): the shape every file we read starts from. */
export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** The first few validation problems, each with the path to the field, for a user-facing message. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join(".") : "(top level)"}: ${i.message}`)
    .join("; ");
}
