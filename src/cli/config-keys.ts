// Keys in a config that its schema does not know: a typo ("maxStep") must not pass silently.
import { z } from "zod";
import { closest } from "./suggest.ts";

export interface UnknownKey {
  /** Where it is: "maxStep", "workers.1.temprature". */
  path: string;
  /** The closest known key at that place, if one is close. */
  suggestion: string | null;
}

/** The object schema under optional/default/nullable wrappers, or null for anything else. */
function objectOf(schema: z.ZodType): z.ZodObject | null {
  let s: z.ZodType = schema;
  for (;;) {
    if (s instanceof z.ZodObject) return s;
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodDefault) s = s.def.innerType as z.ZodType;
    else return null;
  }
}

function arrayElement(schema: z.ZodType): z.ZodType | null {
  let s: z.ZodType = schema;
  for (;;) {
    if (s instanceof z.ZodArray) return s.element as z.ZodType;
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodDefault) s = s.def.innerType as z.ZodType;
    else return null;
  }
}

/**
 * Every key of `value` that `schema` does not declare, depth first, in the file's order. Records
 * (headers, extraBody) hold free keys and are not checked; values of the wrong type are left to
 * the schema's own check.
 */
export function unknownKeys(schema: z.ZodType, value: unknown, path = ""): UnknownKey[] {
  const out: UnknownKey[] = [];
  const element = arrayElement(schema);
  if (element && Array.isArray(value)) {
    value.forEach((v, i) => out.push(...unknownKeys(element, v, `${path}${path ? "." : ""}${i}`)));
    return out;
  }
  const object = objectOf(schema);
  if (!object || typeof value !== "object" || value === null || Array.isArray(value)) return out;
  const known = Object.keys(object.shape);
  for (const [key, v] of Object.entries(value)) {
    const at = `${path}${path ? "." : ""}${key}`;
    const field = object.shape[key] as z.ZodType | undefined;
    if (field) out.push(...unknownKeys(field, v, at));
    else out.push({ path: at, suggestion: closest(key, known) });
  }
  return out;
}

/** One line per unknown key, for a warning or (under --strict) an error. */
export function describeUnknownKeys(keys: readonly UnknownKey[]): string {
  return keys
    .map(
      (k) => `unknown key "${k.path}"${k.suggestion ? ` (did you mean "${k.suggestion}"?)` : ""}`,
    )
    .join("; ");
}
