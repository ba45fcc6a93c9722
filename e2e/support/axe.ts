import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** WCAG 2.1 A and AA (text contrast included) and axe's best practices. */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/** Where axe looks and by which rules. */
export interface AxeScope {
  /** A selector: only what lies inside it; the whole page without one. */
  include?: string;
  /**
   * WCAG_TAGS, with the experimental rule that a control's name must contain its visible label
   * (off by default in axe); axe's default rules without it.
   */
  wcag?: boolean;
}

/** Serious and critical axe violations, one line each (up to three places and why, per rule). */
export async function seriousViolations(
  page: Page,
  { include, wcag = false }: AxeScope = {},
): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  if (wcag)
    builder = builder
      .withTags(WCAG_TAGS)
      .options({ rules: { "label-content-name-mismatch": { enabled: true } } });
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(" ")} ${n.failureSummary?.split("\n")[1] ?? ""}`.trim())
          .join(", ")}`,
    );
}
