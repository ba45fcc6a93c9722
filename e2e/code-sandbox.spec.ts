import { expect, test } from "@playwright/test";
import { CodeSandboxPage } from "./pages/codeSandbox.ts";

// The browser code sandbox (Pyodide in a Web Worker, served by the app itself) scoring five
// scripted answers through the ?sandbox-test hook. The full Evaluate screen has its own spec.

const ADD = {
  style: "stdio",
  cases: [
    { input: "1 2\n", output: "3\n" },
    { input: "40 2\n", output: "42\n" },
  ],
};
const MUL = { style: "function", name: "mul", cases: [{ args: [6, 7], expected: 42 }] };
const fence = (code: string) => `My solution:\n\`\`\`python\n${code}\n\`\`\``;

let sandbox: CodeSandboxPage;
test.beforeEach(async ({ page }) => {
  sandbox = new CodeSandboxPage(page);
  await sandbox.goto();
});
test.afterEach(() => {
  expect(sandbox.errors).toEqual([]);
});

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

  await sandbox.start("right", fence("a, b = map(int, input().split())\nprint(a + b)"), ADD);
  expect(await sandbox.result("right")).toMatchObject({
    correct: true,
    details: { passed: 2, total: 2 },
  });
  await expect(sandbox.note()).toHaveAttribute("data-phase", "ready");
  await expect(sandbox.note()).toContainText("ready");
  expect(fetched).toContain("/pyodide/pyodide.asm.wasm");
  expect(fetched.some((p) => /cdn|jsdelivr/.test(p))).toBe(false);

  await sandbox.start("wrong", fence("a, b = map(int, input().split())\nprint(a * b)"), ADD);
  expect(await sandbox.result("wrong")).toMatchObject({
    correct: false,
    reason: "wrong answer on test 1 of 2",
    details: { passed: 0, firstFailure: { verdict: "wrong_answer" } },
  });

  // The hanging program: the page keeps drawing frames and answering clicks until it is stopped.
  await sandbox.start("hang", fence("while True:\n    pass"), ADD, 3000);
  const worstGap = await sandbox.longestFrameGap(1000);
  expect(await sandbox.done("hang")).toBe(false);
  expect(worstGap).toBeLessThan(250);
  await page.getByTestId("open-settings").click();
  await expect(page.getByTestId("settings")).toBeVisible();
  expect(await sandbox.done("hang")).toBe(false);
  expect(await sandbox.result("hang")).toMatchObject({
    correct: false,
    reason: "time limit exceeded on test 1 of 2",
    details: { passed: 0, firstFailure: { verdict: "timeout" } },
  });

  // A fresh interpreter takes the next answers.
  await sandbox.start("function", "def mul(a, b):\n    return a * b", MUL);
  expect(await sandbox.result("function")).toMatchObject({ correct: true });
  await sandbox.start("escape", fence("import js\nprint(js.document.title)"), ADD);
  const escape = await sandbox.result("escape");
  expect(escape).toMatchObject({ correct: false, details: { passed: 0 } });
  expect(escape.reason).toMatch(/ImportError: js is not available in the code sandbox/);

  const results = await Promise.all(
    ["right", "wrong", "hang", "function", "escape"].map((k) => sandbox.result(k)),
  );
  const pass1 = results.filter((r) => r.correct).length / results.length;
  expect(pass1).toBe(0.4);
});
