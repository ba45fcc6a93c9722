import type { KeyStatus } from "../../state/slices/keybinding.ts";
import { keyStatusAt } from "../../state/slices/keybinding.ts";
import { useStudio } from "../../state/slices/store.ts";

/**
 * A held secret (a key or a header value) as its field shows it: whether it is bound to `origin`
 * (where its owner points now), the value held and the origin it was entered for. Each selector is
 * constant-time and returns a primitive: the pool editor has several of these per worker.
 */
export function useHeldSecret(
  id: string,
  origin: string | null,
): { state: KeyStatus["state"]; held: string; from: string | null } {
  const state = useStudio((s) => keyStatusAt(s, id, origin).state);
  const held = useStudio((s) => s.keys[id] ?? "");
  const from = useStudio((s) => s.keyOrigins[id] || null);
  return { state, held, from };
}
