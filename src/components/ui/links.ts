/**
 * Which link targets a model's output may carry: absolute web addresses and mail links. Anything
 * else (javascript:, data:, vbscript:, relative paths that would navigate the studio itself) is
 * shown as text instead.
 */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  const trimmed = url.trim();
  // Control characters and whitespace inside a scheme are how "java\tscript:" slips past a check.
  if ([...trimmed].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  if (!/^(https?:\/\/|mailto:)/i.test(trimmed)) return null;
  try {
    const parsed = new URL(trimmed);
    return ["http:", "https:", "mailto:"].includes(parsed.protocol) ? trimmed : null;
  } catch {
    return null;
  }
}
