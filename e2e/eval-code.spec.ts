import { expect, test } from "@playwright/test";
import {
  CODE_EXPECTED,
  CODE_PASS_AT_1,
  CODE_QUESTIONS_JSONL,
  scriptedCodeReply,
} from "./fixtures/code-answers.ts";
import type { TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { openEvaluate } from "./support/studio.ts";
import { WORKERS, messagesText } from "./support/scenario.ts";

// The Evaluate view with the code scorer: five scripted code answers (e2e/fixtures/code-answers.ts,
// the same ones `conductor-studio eval` scores in src/cli/cli-eval-code.test.ts) scored in the
// browser's Pyodide sandbox.

let server: TestServer;
withTestServer((s) => (server = s));

const [SOLVER] = WORKERS;
const STRATEGY = `single:${SOLVER.name}`;

test("a code question set scored in the browser: pass@1 as scripted, tests per item, responsive during the hang", async ({
  page,
}) => {
  test.setTimeout(150_000);
  server.setDefault(SOLVER.model, (body) => scriptedCodeReply(messagesText(body)));
  const fetched: string[] = [];
  page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
  const { studio, evaluate } = await openEvaluate(page, server);

  // The sample code set picks the code scorer; then the scripted set is imported as a file.
  await evaluate.pickSample("code");
  await expect(evaluate.byTestId("eval-count")).toHaveText("7 question(s)");
  await expect(evaluate.byTestId("eval-scorer")).toHaveValue("code");
  await evaluate.importFile("code-answers.jsonl", CODE_QUESTIONS_JSONL);
  await expect(evaluate.byTestId("eval-count")).toHaveText("5 question(s)");
  await expect(evaluate.byTestId("map-tests")).toHaveValue("tests");
  await evaluate.byTestId("eval-scorer").selectOption("");
  await evaluate.choose(STRATEGY);
  expect(fetched.filter((p) => p.startsWith("/pyodide/"))).toEqual([]);
  const hangCell = `cell-code-hang-${STRATEGY}`;
  await evaluate.recordFrames(hangCell);
  await evaluate.start();
  await expect(evaluate.byTestId("code-runtime-note")).toBeVisible();

  // While answers are scored, keep clicking another control (the tests table's summary) and time
  // each click until it took effect, until the hanging answer's verdict is in.
  const details = evaluate.byTestId("code-results");
  await expect(details).toBeVisible({ timeout: 90_000 });
  const clicks: [start: number, end: number][] = [];
  while ((await evaluate.cell("code-hang", STRATEGY).count()) === 0) {
    const open = (await details.getAttribute("open")) !== null;
    const t0 = await evaluate.now();
    await evaluate.byTestId("code-results-summary").click();
    if (open) await expect(details).not.toHaveAttribute("open");
    else await expect(details).toHaveAttribute("open");
    clicks.push([t0, await evaluate.now()]);
  }
  // The hang ran for its 2 s limit just before its verdict appeared: over that window the page
  // drew frames without a long stall and answered every click promptly.
  const { gaps, seenAt } = await evaluate.frames();
  expect(seenAt).not.toBeNull();
  const hang = { from: seenAt! - 2000, to: seenAt! };
  const during = gaps.filter(([at]) => at > hang.from && at <= hang.to).map(([, gap]) => gap);
  // Behaviour: frames went on and clicks took effect while it ran. How long the gaps and clicks
  // took (targets 250 ms and 1 s) is printed below, not asserted under CI's load.
  expect(during.length).toBeGreaterThan(0);
  const clicksDuring = clicks.filter(([t0, t1]) => t0 >= hang.from && t1 <= hang.to);
  expect(clicksDuring.length).toBeGreaterThan(0);
  test.info().annotations.push({
    type: "responsiveness during the hang",
    description: `longest frame gap ${Math.max(...during).toFixed(0)} ms (target 250) over ${during.length} frames; clicks ${clicksDuring.map(([a, b]) => (b - a).toFixed(0)).join(", ")} ms (target 1000)`,
  });
  if (process.env.PRINT_FIGURES) console.log(test.info().annotations);
  if ((await details.getAttribute("open")) === null)
    await evaluate.byTestId("code-results-summary").click();

  await expect(evaluate.byTestId("eval-done")).toHaveText("5/5", { timeout: 30_000 });
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "finished");
  await expect(evaluate.byTestId("eval-report").locator("th").nth(1)).toHaveText("pass@1");
  await expect(evaluate.accuracy(STRATEGY)).toHaveText(`${(CODE_PASS_AT_1 * 100).toFixed(1)}%`);
  for (const [item, correct] of Object.entries(CODE_EXPECTED))
    await expect(evaluate.cell(item, STRATEGY)).toHaveAttribute(
      "data-result",
      correct ? "right" : "wrong",
    );

  // Tests per item: in the cell's tooltip and in the table under the matrix.
  await expect(evaluate.cell("code-wrong", STRATEGY)).toHaveAttribute(
    "title",
    /^0\/2 tests passed in .*; test 1 wrong answer: input "1 2\\n", expected "3\\n", got "2\\n"\. Open code-wrong with /,
  );
  const row = (key: string) => evaluate.byTestId(`code-result-code-${key}-${STRATEGY}`);
  await expect(row("right").getByTestId("tests")).toHaveText("2/2");
  await expect(row("function").getByTestId("tests")).toHaveText("1/1");
  await expect(row("wrong")).toContainText("test 1: wrong answer");
  await expect(row("hang")).toContainText("test 1: time limit exceeded");
  await expect(row("hang").getByTestId("tests")).toHaveText("0/2");
  await expect(row("escape")).toContainText("ImportError: js is not available");
  await expect(evaluate.byTestId("code-results-summary")).toHaveText(
    "Tests per answer: 2 of 5 passed every test",
  );

  // The runtime came from the app itself (the fresh interpreter after the hang reads it again).
  await expect(evaluate.byTestId("code-runtime-note")).toContainText("ready");
  expect(fetched).toContain("/pyodide/pyodide.asm.wasm");
  expect(fetched.some((p) => /cdn|jsdelivr/.test(p))).toBe(false);
  expect(studio.errors).toEqual([]);
});
