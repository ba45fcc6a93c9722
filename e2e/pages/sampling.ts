import type { Page } from "@playwright/test";

/** What the page showed at one DOM change: the Conductor's raw text length and each node. */
export interface Sample {
  raw: number;
  nodes: { status: string; output: number }[];
}

/**
 * Records what the page shows after every DOM change from now on, so a spec can check afterwards
 * that text streamed in and steps appeared while the Conductor or a worker was still writing.
 */
export async function startSampling(page: Page): Promise<void> {
  await page.evaluate(() => {
    const samples: unknown[] = [];
    Object.assign(window, { __studioSamples: samples });
    const text = (el: Element | null) => el?.textContent ?? "";
    new MutationObserver(() => {
      samples.push({
        raw: text(document.querySelector('[data-testid="conductor-raw"]')).length,
        nodes: [...document.querySelectorAll('[data-testid="step-node"]')].map((n) => ({
          status: n.querySelector('[data-testid="status-badge"]')?.getAttribute("data-status"),
          output: text(n.querySelector('[data-testid="step-output"]')).length,
        })),
      });
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/** Every sample recorded since `startSampling`. */
export function readSamples(page: Page): Promise<Sample[]> {
  return page.evaluate(() => (window as unknown as { __studioSamples: Sample[] }).__studioSamples);
}
