/**
 * A tolerant reader for stored settings (as Excalidraw's `restoreAppState`): every field that
 * parses is kept, each one that does not is dropped alone and named, so one bad value never costs
 * the rest. Absent fields are not "dropped": the caller's default applies to them silently.
 */
import type { z } from "zod";
import { isObject } from "./guards.ts";

/** What a read kept, and the dotted paths of the fields it dropped ("conductor.rounds", "pool[2]"). */
interface TolerantRead<T> {
  value: T;
  dropped: string[];
}

type Fields<S extends Record<string, z.ZodType>> = { [K in keyof S]?: z.output<S[K]> };

const join = (at: string, key: string) => (at ? `${at}.${key}` : key);

/**
 * Reads an object field by field against `shape`. Not an object at all: nothing is kept and `at`
 * (the whole object) is dropped, unless it is absent.
 */
export function readFields<S extends Record<string, z.ZodType>>(
  shape: S,
  raw: unknown,
  at = "",
): TolerantRead<Fields<S>> {
  const value: Fields<S> = {};
  const dropped: string[] = [];
  if (raw === undefined) return { value, dropped };
  if (!isObject(raw)) return { value, dropped: [at || "(all)"] };
  for (const key of Object.keys(shape) as (keyof S & string)[]) {
    if (!(key in raw) || raw[key] === undefined) continue;
    const parsed = shape[key]?.safeParse(raw[key]);
    if (parsed?.success) value[key] = parsed.data as z.output<S[typeof key]>;
    else dropped.push(join(at, key));
  }
  return { value, dropped };
}

/** Reads a list item by item: the items that parse are kept in order, each other one is dropped. */
export function readItems<T extends z.ZodType>(
  item: T,
  raw: unknown,
  at: string,
): TolerantRead<z.output<T>[] | undefined> {
  if (raw === undefined) return { value: undefined, dropped: [] };
  if (!Array.isArray(raw)) return { value: undefined, dropped: [at] };
  const value: z.output<T>[] = [];
  const dropped: string[] = [];
  raw.forEach((x: unknown, i) => {
    const parsed = item.safeParse(x);
    if (parsed.success) value.push(parsed.data);
    else dropped.push(`${at}[${i}]`);
  });
  return { value, dropped };
}
