import { expect, test } from "@playwright/test";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import type { ReplySpec } from "./server/server.ts";
import { QUESTION, WORKERS, piecesOf, scriptPlanAndAnswers } from "./support/scenario.ts";

let server: TestServer;
let studio: StudioPage;

withStudio((s) => ({ server, studio } = s));

const JUDGE = WORKERS[2].model;

/** Plans the usual three steps, lets the judge answer `answer`, runs, and waits for the answer. */
async function runWithAnswer(answer: string | ReplySpec) {
  scriptPlanAndAnswers(server);
  server.setDefault(JUDGE, answer);
  await studio.ask(QUESTION);
  await studio.plan(3);
  await studio.run();
  await studio.waitIdle();
  await expect(studio.byTestId("final-answer")).toBeVisible();
}

test("a remote image in an answer is never fetched: it becomes a link", async ({ page }) => {
  const requests: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("other.example")) requests.push(r.url());
  });
  await page.route("**://other.example/**", (route) => {
    requests.push(route.request().url());
    return route.fulfill({ status: 200, body: "" });
  });
  await runWithAnswer("Here is the chart:\n\n![chart](https://other.example/p.png)\n\nDone.");
  const answer = studio.byTestId("final-answer");
  await expect(answer.getByRole("link", { name: "[image: chart]" })).toHaveAttribute(
    "href",
    "https://other.example/p.png",
  );
  await expect(answer.locator("img")).toHaveCount(0);
  // The inspector shows the same output: no image there either.
  await studio.selectNode(2);
  await expect(studio.byTestId("inspector-output").locator("img")).toHaveCount(0);
  expect(requests).toEqual([]);
});

test("a javascript: link is text, and a web link opens a new tab, never the studio's", async ({
  page,
  context,
}) => {
  await runWithAnswer(
    "[Click me](javascript:window.__clicked=1) or read [the docs](https://docs.example/a).",
  );
  const answer = studio.byTestId("final-answer");
  await expect(answer.getByText("Click me")).toBeVisible();
  await expect(answer.locator("a", { hasText: "Click me" })).toHaveCount(0);
  await answer.getByText("Click me").click();
  expect(await page.evaluate(() => (window as { __clicked?: number }).__clicked)).toBeUndefined();

  const link = answer.getByRole("link", { name: "the docs" });
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  await context.route("https://docs.example/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<p>docs</p>" }),
  );
  const [popup] = await Promise.all([context.waitForEvent("page"), link.click()]);
  await popup.waitForLoadState();
  expect(popup.url()).toBe("https://docs.example/a");
  // The studio stayed where it was, with its workflow.
  expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  await expect(studio.nodes()).toHaveCount(3);
  await expect(answer).toBeVisible();
});

test("math is typeset, tables have borders, and the answer and outputs copy", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await runWithAnswer("| n | factor |\n|---|---|\n| 391 | 17 |\n\nSo $391 = 17 \\times 23$.");
  const answer = studio.byTestId("final-answer");
  await expect(answer.locator(".katex")).toHaveCount(1);
  const border = await answer
    .locator("td")
    .first()
    .evaluate((td) => getComputedStyle(td).borderTopStyle);
  expect(border).toBe("solid");
  await studio.byTestId("copy-answer").click();
  await expect(studio.byTestId("copy-answer")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("391 = 17");
  await studio.selectNode(0);
  await studio.byTestId("copy-output").click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `Answer from ${WORKERS[0].name}.`,
  );
});

// How long "Show all" blocks the page is printed by `npm run bench` (bench/content.ts, target < 200 ms).
test("a long answer shows its start, then all of it on request", async () => {
  const line = "A long line of the answer with words in it, and more words after them.\n";
  const answer = line.repeat(Math.ceil(2_000_000 / line.length));
  await runWithAnswer({ chunks: piecesOf(answer, 64 * 1024) });
  await expect(studio.byTestId("truncated")).toBeVisible();
  await studio.byTestId("final-answer").getByTestId("show-all").click();
  await expect(studio.byTestId("final-answer").getByTestId("long-text")).toHaveAttribute(
    "data-complete",
    "true",
  );
});
