import type { Price } from "./schema/worker.ts";
import type { Usage } from "./schema/usage.ts";

/**
 * Dollar cost of one call: the provider's own figure when it reported one, else tokens times the
 * per-million prices. Zero for an answer from the response cache; zero too when no price is known,
 * which `pricedUsage` marks on the usage so that totals say "unknown" instead of $0.
 */
export function callCost(usage: Usage, price: Price | undefined): number {
  if (usage.cached) return 0;
  if (usage.providerCost !== undefined) return usage.providerCost;
  if (!price) return 0;
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
}

/**
 * The usage to record for a call: marked `unpriced` when its cost is unknown (see callCost). A
 * model in the browser (`remote` false) costs nothing, priced or not.
 */
export function pricedUsage(usage: Usage, price: Price | undefined, remote: boolean): Usage {
  const unknown = remote && !usage.cached && usage.providerCost === undefined && !price;
  return unknown ? { ...usage, unpriced: true } : usage;
}

/** A total's cost as text: "unknown" when no call was priced, "≥ $x, n calls unpriced" when some. */
export function formatTotalCost(t: {
  cost: number;
  calls: number;
  unpricedCalls?: number;
}): string {
  const unpriced = t.unpricedCalls ?? 0;
  if (unpriced === 0) return formatCost(t.cost);
  if (t.cost === 0) return "cost unknown";
  return `≥ ${formatCost(t.cost)}, ${unpriced} call${unpriced === 1 ? "" : "s"} unpriced`;
}

/** Formats dollars for display: more decimals for the small figures typical of a single call. */
export function formatCost(dollars: number): string {
  if (dollars === 0) return "$0";
  if (dollars < 0.0001) return "<$0.0001";
  if (dollars < 0.01) return `$${dollars.toFixed(4)}`;
  return `$${dollars.toFixed(2)}`;
}
