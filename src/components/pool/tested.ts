import { create } from "zustand";

/** Workers whose "Test connection" succeeded from this page: the browser-access note says so. */
export const useTested = create<{ ok: ReadonlySet<string> }>()(() => ({ ok: new Set() }));

export function markTested(workerId: string, ok: boolean): void {
  useTested.setState((s) => {
    const next = new Set(s.ok);
    if (ok) next.add(workerId);
    else next.delete(workerId);
    return { ok: next };
  });
}
