import type { EvalItem } from "./item-schema.ts";

/** FNV-1a over UTF-16 code units, 64 bits as two 32-bit halves: fast, synchronous, stable. */
export function fnv1a64(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c ^ (h1 >>> 7), 0x01000193) >>> 0;
  }
  return h2.toString(16).padStart(8, "0") + h1.toString(16).padStart(8, "0");
}

/**
 * The hash of a question set's items (ids, questions, references, choices, kinds and, when present,
 * code tests), order included. Items without tests hash as they did before tests existed.
 */
export function datasetHash(items: readonly EvalItem[]): string {
  const canonical = items.map((i) => [
    i.id,
    i.question,
    i.expected ?? null,
    i.choices ?? null,
    i.kind ?? null,
    ...(i.tests === undefined ? [] : [i.tests]),
  ]);
  return `fnv1a64:${fnv1a64(JSON.stringify(canonical))}`;
}
