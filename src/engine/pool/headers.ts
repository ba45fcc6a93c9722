import { presetById } from "./presets.ts";

/**
 * Custom headers: every value is a secret (it lives with the keys) unless its header is named in
 * `plainHeaders`. Wherever a pool is written (memory, storage, pool files, run exports) a secret
 * header keeps its name and holds this placeholder instead of its value.
 */
export const REDACTED = "[redacted]";

/** Anything that carries custom headers: a worker, a Conductor config. */
export interface HeaderOwner {
  headers?: Record<string, string> | undefined;
  plainHeaders?: string[] | undefined;
}

/** Whether `name` is marked not secret (header names compare case-insensitively). */
export function isPlainHeader(owner: HeaderOwner, name: string): boolean {
  const lower = name.toLowerCase();
  return (owner.plainHeaders ?? []).some((n) => n.toLowerCase() === lower);
}

/** The headers with every secret value replaced by REDACTED; names are kept. */
export function redactHeaders(owner: HeaderOwner): Record<string, string> | undefined {
  if (!owner.headers) return owner.headers;
  return Object.fromEntries(
    Object.entries(owner.headers).map(([k, v]) => [k, isPlainHeader(owner, k) ? v : REDACTED]),
  );
}

/** The owner with its secret header values redacted and `plainHeaders` limited to its headers. */
export function redactOwner<T extends HeaderOwner>(owner: T): T {
  if (!owner.headers) return owner;
  const names = Object.keys(owner.headers);
  const plain = names.filter((n) => isPlainHeader(owner, n));
  return {
    ...owner,
    headers: redactHeaders(owner),
    ...(owner.plainHeaders || plain.length ? { plainHeaders: plain } : {}),
  };
}

/**
 * For a file written before headers had `plainHeaders`: a header its provider's preset sets, with
 * the preset's value, is known not to be secret (the preset never carries a credential).
 */
export function withPresetPlainHeaders<T extends HeaderOwner & { provider?: string | undefined }>(
  worker: T,
): T {
  const preset = presetById(worker.provider)?.headers;
  if (!worker.headers || !preset || worker.plainHeaders) return worker;
  const plain = Object.entries(worker.headers)
    .filter(([k, v]) => preset[k] === v)
    .map(([k]) => k);
  return plain.length ? { ...worker, plainHeaders: plain } : worker;
}
