import type { Price } from "./schema/worker.ts";
import type { Usage } from "./schema/usage.ts";

/**
 * Dollar cost of one call: the provider's own figure when it reported one, else tokens times the
 * per-million prices. Zero when no price is known, and for an answer from the response cache.
 */
export function callCost(usage: Usage, price: Price | undefined): number {
  if (usage.cached) return 0;
  if (usage.providerCost !== undefined) return usage.providerCost;
  if (!price) return 0;
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
}

/** Formats dollars for display: more decimals for the small figures typical of a single call. */
export function formatCost(dollars: number): string {
  if (dollars === 0) return "$0";
  if (dollars < 0.0001) return "<$0.0001";
  if (dollars < 0.01) return `$${dollars.toFixed(4)}`;
  return `$${dollars.toFixed(2)}`;
}
