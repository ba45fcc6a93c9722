import { expect, test } from "@playwright/test";
import { EscapedSandbox } from "./pages/codeSandbox.ts";
import { startDevServer } from "./support/devServer.ts";
import type { Listener } from "./support/listener.ts";
import { startListener } from "./support/listener.ts";

// The browser code sandbox against a program that reached JavaScript. The `/?sandbox-test` hook
// runs the test's JavaScript in every sandbox worker's global scope, before Pyodide loads and
// before any lockdown (so with every API the realm has): the boundary must hold whatever path a
// program finds from Python to JavaScript. It holds by the frame alone: an opaque origin, and a
// policy in the frame's own document, under the preview build and under the dev server alike.

const fence = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const ADD = JSON.stringify({
  style: "stdio",
  cases: [
    { input: "1 2\n", output: "3\n" },
    { input: "40 2\n", output: "42\n" },
  ],
});
const RIGHT = { answer: fence("a, b = map(int, input().split())\nprint(a + b)"), tests: ADD };
const WRONG = { answer: fence("a, b = map(int, input().split())\nprint(a * b)"), tests: ADD };

/** Every way out the worker realm offers, tried at once; each result goes into one report. */
const reachOut = (port: number) => String.raw`
(async () => {
  const base = "http://127.0.0.1:${port}/";
  const tries = {};
  const attempt = async (name, f) => {
    try { await f(); tries[name] = "reached"; } catch (e) { tries[name] = "refused " + ((e && e.name) || e); }
  };
  const settle = (open) => new Promise((ok, fail) => open(ok, () => fail(new Error("error event"))));
  await attempt("fetch", () => fetch(base + "fetch", { mode: "no-cors" }));
  await attempt("xhr", () => settle((ok, fail) => {
    const x = new XMLHttpRequest(); x.open("GET", base + "xhr"); x.onload = ok; x.onerror = fail; x.send();
  }));
  await attempt("import", () => import(base + "import.js"));
  await attempt("font", () => new FontFace("escaped", "url(" + base + "font.woff)").load());
  await attempt("websocket", () => settle((ok, fail) => {
    const ws = new WebSocket("ws://127.0.0.1:${port}/ws"); ws.onopen = ok; ws.onerror = fail;
  }));
  await attempt("eventsource", () => settle((ok, fail) => {
    const s = new EventSource(base + "sse"); s.onopen = ok; s.onerror = () => { s.close(); fail(); };
  }));
  await attempt("beacon", () => {
    if (typeof navigator.sendBeacon !== "function") throw new Error("no sendBeacon here");
    if (!navigator.sendBeacon(base + "beacon", "x")) throw new Error("refused");
  });
  await attempt("opfs", async () => {
    const file = await (await navigator.storage.getDirectory()).getFileHandle("escaped.txt", { create: true });
    const w = await file.createWritable(); await w.write("escaped"); await w.close();
  });
  await attempt("indexedDB", () => settle((ok, fail) => {
    const r = indexedDB.open("escaped"); r.onsuccess = ok; r.onerror = fail;
  }));
  await attempt("caches", () => caches.open("escaped"));
  postMessage({ type: "escape-report", tries });
})();`;

/**
 * The escape that poisons later verdicts (what today's worker allowed): once it sees a run of a
 * program marked POISON, every result its worker posts says the expected sum, right or wrong.
 * FATAL forges a start-up failure of the whole pool; CLOSE ends the worker mid-answer.
 */
const POISON = String.raw`
let stdin = "";
// Ahead of the worker's own handler, which runs the program before a later listener would hear.
const handler = self.onmessage;
self.onmessage = (e) => {
  watch(e);
  handler.call(self, e);
};
function watch(e) {
  const d = e.data;
  if (!d || d.type !== "run") return;
  stdin = String(d.request.stdin || "");
  const code = String(d.request.code);
  if (code.includes("FATAL")) postMessage({ type: "fatal", message: "forged by the program" });
  if (code.includes("CLOSE")) close();
  if (!code.includes("POISON") || self.poisoned) return;
  self.poisoned = true;
  const real = self.postMessage.bind(self);
  self.postMessage = (m) => {
    if (m && m.type === "result" && m.outcome) {
      const sum = stdin.split(/\s+/).filter(Boolean).map(Number).reduce((a, b) => a + b, 0);
      m.outcome = { ...m.outcome, status: "ok", stdout: sum + "\n", error: undefined };
    }
    real(m);
  };
}`;

let listener: Listener;
test.beforeAll(async () => (listener = await startListener()));
test.afterAll(() => listener.close());

async function holdsTheBoundary(escaped: EscapedSandbox) {
  const before = listener.connections();
  // The escape runs in the worker that scores this answer, which still gets its true verdict.
  const verdicts = await escaped.score([RIGHT]);
  await expect.poll(async () => (await escaped.reports()).length).toBeGreaterThan(0);
  const [report] = await escaped.reports();
  const tried = Object.keys(report?.tries ?? {});
  expect(tried.length).toBe(10);
  for (const [way, result] of Object.entries(report?.tries ?? {}))
    expect(result, way).toMatch(/^refused/);
  expect(listener.connections() - before).toBe(0);
  expect(await escaped.studioStorage()).toEqual({
    opfs: false,
    indexedDB: false,
    caches: false,
    localStorage: false,
  });
  expect(verdicts).toMatchObject([{ correct: true }]);
}

test("an escaped program reaches no network and none of the studio's storage (preview build)", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const escaped = new EscapedSandbox(page);
  await escaped.open(reachOut(listener.port));
  await holdsTheBoundary(escaped);
});

test("the same under the Vite dev server, which sends no Content-Security-Policy", async ({
  page,
}) => {
  test.setTimeout(420_000);
  const dev = await startDevServer();
  try {
    const escaped = new EscapedSandbox(page);
    await escaped.open(reachOut(listener.port), dev.url);
    await holdsTheBoundary(escaped);
  } finally {
    await dev.close();
  }
});

test("a poisoning answer changes no later verdict; a forged failure or a killed worker costs only its own", async ({
  page,
}) => {
  test.setTimeout(420_000);
  const escaped = new EscapedSandbox(page);
  await escaped.open(POISON);
  const poison = { answer: fence("# POISON\nprint(0)"), tests: ADD };
  // The poison forges its own verdict (the threat model allows that much)...
  expect(await escaped.score([poison])).toMatchObject([{ correct: true }]);
  // ...and nothing after it: honest answers in turn get their true verdicts.
  expect(await escaped.score([WRONG, RIGHT, WRONG])).toMatchObject([
    { correct: false },
    { correct: true },
    { correct: false },
  ]);
  // Scored together: a forged pool failure and a closed worker fail their own answers only.
  const fatal = { answer: fence("# FATAL\nprint(3)"), tests: ADD };
  const closed = { answer: fence("# CLOSE\nprint(3)"), tests: ADD };
  const verdicts = await escaped.score([fatal, closed, RIGHT, WRONG, RIGHT], {
    together: true,
    timeMs: 3000,
  });
  expect(verdicts.map((v) => v.correct)).toEqual([false, false, true, false, true]);
});
