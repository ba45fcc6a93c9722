import { expect, test } from "@playwright/test";
import {
  CODE_ANSWERS,
  CODE_PASS_AT_1,
  ESCAPE_OUTPUT,
  ESCAPE_PROGRAM,
} from "./fixtures/code-answers.ts";
import { ATTACKS } from "./fixtures/code-attacks.ts";
import { CodeSandboxPage } from "./pages/codeSandbox.ts";
import { withPageObject } from "./support/studio.ts";

// The browser code sandbox (Pyodide in a Web Worker, served by the app itself) scoring five
// scripted answers through the ?sandbox-test hook. The full Evaluate screen has its own spec.

let sandbox: CodeSandboxPage;
withPageObject(CodeSandboxPage, (s) => (sandbox = s));
test.beforeEach(() => sandbox.goto());

test("scores right, wrong, hanging and escaping answers; the page stays responsive during the hang", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await expect(sandbox.note()).toHaveAttribute("data-phase", "idle");
  await expect(sandbox.note()).toContainText(/Pyodide [\d.]+\): 1\d\.\d MB, downloaded once/);
  // Nothing of Pyodide is fetched until a code answer is scored.
  const fetched: string[] = [];
  page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
  expect(fetched.filter((p) => p.startsWith("/pyodide/"))).toEqual([]);

  const [right, wrong, hang, fn, escape] = CODE_ANSWERS;
  if (!right || !wrong || !hang || !fn || !escape)
    throw new Error("five scripted answers expected");
  await sandbox.start(right);
  expect(await sandbox.result(right.key)).toMatchObject({
    correct: true,
    details: { passed: 2, total: 2 },
  });
  await expect(sandbox.note()).toHaveAttribute("data-phase", "ready");
  await expect(sandbox.note()).toContainText("ready");
  expect(fetched).toContain("/pyodide/pyodide.asm.wasm");
  expect(fetched.some((p) => /cdn|jsdelivr/.test(p))).toBe(false);

  await sandbox.start(wrong);
  expect(await sandbox.result(wrong.key)).toMatchObject({
    correct: false,
    details: { passed: 0, firstFailure: { verdict: "wrong_answer" } },
  });

  // The hanging program: the page keeps drawing frames and answering clicks until it is stopped.
  await sandbox.start(hang);
  // The longest frame gap is printed (target 250 ms), not asserted under CI's load.
  const worstGap = await sandbox.longestFrameGap(1000);
  test.info().annotations.push({
    type: "longest frame gap (target 250 ms)",
    description: `${worstGap.toFixed(0)} ms`,
  });
  expect(await sandbox.done(hang.key)).toBe(false);
  await page.getByTestId("open-settings").click();
  await expect(page.getByTestId("settings")).toBeVisible();
  expect(await sandbox.done(hang.key)).toBe(false);
  expect(await sandbox.result(hang.key)).toMatchObject({
    correct: false,
    details: { passed: 0, firstFailure: { verdict: "timeout" } },
  });

  // A fresh interpreter takes the next answers.
  await sandbox.start(fn);
  await sandbox.start(escape);
  const results = [];
  for (const a of CODE_ANSWERS) {
    const r = await sandbox.result(a.key);
    expect(r.correct, a.key).toBe(a.correct);
    if (a.reason) expect(r.reason, a.key).toMatch(a.reason);
    results.push(r);
  }
  expect(results.filter((r) => r.correct).length / results.length).toBe(CODE_PASS_AT_1);

  // Digging past the import guard finds Pyodide's converters, but no way to run JavaScript.
  expect(await sandbox.stdout(ESCAPE_PROGRAM)).toBe(ESCAPE_OUTPUT);
});

test("hostile answers score as they deserve and change nothing for the answers after them", async () => {
  test.setTimeout(240_000);
  for (const a of ATTACKS) {
    const r = await sandbox.score(a.answer, a.tests, a.limits ?? { timeMs: 4000 });
    expect(r.correct, `${a.key}: ${r.reason}`).toBe(a.correct);
    if (a.reason) expect(r.reason, a.key).toMatch(a.reason);
    // A memory limit ends the program on memory, not by waiting out the wall limit: its reason
    // (checked above) says "memory limit exceeded", never "time limit exceeded".
  }
});

test("the app may not be framed, and the code sandbox's frames run in an opaque origin under a policy of their own", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const res = await request.get("/");
  const csp = res.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res.headers()["x-frame-options"]).toBe("DENY");
  const headersFile = await request.get("/_headers");
  expect(await headersFile.text()).toContain("frame-ancestors 'none'");
  expect(await sandbox.stdout("print(6 * 7)")).toBe("42\n");
  // The sandbox's frame stays for the next answers: scripts only, no allow-same-origin, and its
  // own document says it may connect nowhere.
  const frame = page.locator("iframe[sandbox]").first();
  await expect(frame).toHaveAttribute("sandbox", "allow-scripts");
  const doc = (await frame.getAttribute("srcdoc")) ?? "";
  expect(doc).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
  expect(doc).toContain("connect-src 'none'");
  expect(await page.evaluate(() => location.origin)).not.toBe("null");
  const frames = page.frames().filter((f) => f !== page.mainFrame());
  const origins = await Promise.all(frames.map((f) => f.evaluate(() => self.origin)));
  expect(origins.length).toBeGreaterThan(0);
  expect(new Set(origins)).toEqual(new Set(["null"]));
});
