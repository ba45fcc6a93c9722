import type { Page } from "@playwright/test";
import type { ScriptedCodeAnswer } from "../fixtures/code-answers.ts";

/** The code sandbox's test hook (`/?sandbox-test`, src/components/eval/SandboxTestHook.tsx). */
export class CodeSandboxPage {
  readonly errors: string[] = [];

  constructor(readonly page: Page) {
    page.on("pageerror", (e) => this.errors.push(e.message));
  }

  async goto() {
    await this.page.goto("/?sandbox-test");
    await this.page.waitForFunction(() => window.__codeSandbox !== undefined);
  }

  note() {
    return this.page.getByTestId("code-runtime-note");
  }

  /** Starts scoring in the page without waiting; `result(key)` waits for it. */
  async start({ key, answer, tests, timeMs }: ScriptedCodeAnswer) {
    await this.page.evaluate(
      ([key, answer, tests, timeMs]) => {
        const w = window as unknown as { __scores?: Record<string, unknown> };
        const scores = (w.__scores ??= {});
        const limits = timeMs ? { timeMs } : undefined;
        void window.__codeSandbox?.score(answer, tests, limits).then((r) => (scores[key] = r));
      },
      [key, answer, tests, timeMs ?? 0] as const,
    );
  }

  async done(key: string): Promise<boolean> {
    return this.page.evaluate(
      (key) =>
        (window as unknown as { __scores?: Record<string, unknown> }).__scores?.[key] !== undefined,
      key,
    );
  }

  async result(key: string) {
    const handle = await this.page.waitForFunction(
      (key) => (window as unknown as { __scores?: Record<string, unknown> }).__scores?.[key],
      key,
      { timeout: 60_000 },
    );
    return (await handle.jsonValue()) as {
      correct: boolean | null;
      reason?: string;
      details?: { passed: number; total: number; firstFailure: { verdict: string } | null };
    };
  }

  /** Runs one program in the page's sandbox and returns its stdout (or why it did not run). */
  async stdout(code: string): Promise<string> {
    return this.page.evaluate(async (code) => {
      const r = await window.__codeSandbox?.run(code);
      if (!r) return "no sandbox";
      return r.ok ? r.outcome.stdout || `${r.outcome.status}: ${r.outcome.error ?? ""}` : r.message;
    }, code);
  }

  /** Scores one answer in the page and waits for the result (and how long it took). */
  async score(answer: string, tests: string, limits?: Record<string, number>) {
    return this.page.evaluate(
      async ([answer, tests, limits]) => {
        const t0 = performance.now();
        const r = await window.__codeSandbox?.score(answer, tests, limits ?? undefined);
        const ran = (r?.details as { timeMs?: number } | undefined)?.timeMs;
        return { correct: r?.correct ?? null, reason: r?.reason, ms: performance.now() - t0, ran };
      },
      [answer, tests, limits ?? null] as const,
    );
  }

  /** The longest gap between animation frames over `ms`: the main thread's worst stall. */
  async longestFrameGap(ms: number): Promise<number> {
    return this.page.evaluate(
      (ms) =>
        new Promise<number>((resolve) => {
          const start = performance.now();
          let last = start;
          let worst = 0;
          const tick = (now: number) => {
            worst = Math.max(worst, now - last);
            last = now;
            if (now - start < ms) requestAnimationFrame(tick);
            else resolve(worst);
          };
          requestAnimationFrame(tick);
        }),
      ms,
    );
  }
}

/** What the escaped JavaScript reported from inside the sandbox (`{ type: "escape-report" }`). */
export interface EscapeReport {
  tries: Record<string, string>;
}

/** The escape hook of `/?sandbox-test`: a sandbox whose workers first run the test's JavaScript. */
export class EscapedSandbox {
  constructor(readonly page: Page) {}

  /** Opens `/?sandbox-test` under `origin` (the preview build by default) with `source` as the escape. */
  async open(source: string, origin = "") {
    await this.page.goto(`${origin}/?sandbox-test`);
    await this.page.waitForFunction(() => window.__codeSandbox !== undefined, undefined, {
      timeout: 240_000,
    });
    await this.page.evaluate((s) => window.__codeSandbox?.escape(s), source);
  }

  /** Scores each answer in turn (or all at once) and returns the verdicts in order. */
  async score(
    answers: { answer: string; tests: string }[],
    { together = false, timeMs = 4000 } = {},
  ): Promise<{ correct: boolean | null; reason?: string }[]> {
    return this.page.evaluate(
      async ([answers, together, timeMs]) => {
        const hook = window.__codeSandbox;
        if (!hook) throw new Error("no sandbox hook");
        const one = async (a: { answer: string; tests: string }) => {
          const r = await hook.scoreEscaped(a.answer, a.tests, { timeMs });
          return r.reason === undefined
            ? { correct: r.correct }
            : { correct: r.correct, reason: r.reason };
        };
        if (together) return Promise.all(answers.map(one));
        const out = [];
        for (const a of answers) out.push(await one(a));
        return out;
      },
      [answers, together, timeMs] as const,
    );
  }

  async reports(): Promise<EscapeReport[]> {
    return this.page.evaluate(() => (window.__codeSandbox?.reports() ?? []) as EscapeReport[]);
  }

  /** Whether the studio's own origin holds anything the escaped code tried to write. */
  async studioStorage() {
    return this.page.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      const files: string[] = [];
      for await (const name of (root as unknown as { keys(): AsyncIterable<string> }).keys())
        files.push(name);
      const dbs = (await indexedDB.databases()).map((d) => d.name ?? "");
      return {
        opfs: files.includes("escaped.txt"),
        indexedDB: dbs.includes("escaped"),
        caches: (await caches.keys()).includes("escaped"),
        localStorage: localStorage.getItem("escaped") !== null,
      };
    });
  }
}
