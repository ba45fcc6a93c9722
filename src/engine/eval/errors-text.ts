import type { EvalResult } from "./schema.ts";

/**
 * The errored items in words, for the end of a command-line evaluation: how many, by stage and
 * code, and that running again retries them.
 */
export function errorSummary(results: readonly EvalResult[]): string {
  const errored = results.filter((r) => r.error);
  if (errored.length === 0) return "";
  const by = new Map<string, { n: number; message: string }>();
  for (const r of errored) {
    const key = `${r.error!.stage} ${r.error!.code}`;
    const seen = by.get(key);
    by.set(key, { n: (seen?.n ?? 0) + 1, message: seen?.message ?? r.error!.message });
  }
  const lines = [...by].map(([key, v]) => `  ${v.n} × ${key}: ${v.message}`);
  return (
    `${errored.length} item(s) errored (a call failed; not counted as wrong):\n${lines.join("\n")}\n` +
    "Run the same command again to retry them.\n"
  );
}
