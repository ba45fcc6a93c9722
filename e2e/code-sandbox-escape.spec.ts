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

/**
 * How the escaped code reports to the test: on its answer's own port, which the frame hands the
 * worker in its one message (a worker's own `postMessage` reaches no one).
 */
const REPORT = String.raw`
let reportTo = null;
const queued = [];
const firstHandler = self.onmessage;
self.onmessage = (e) => {
  reportTo = e.data && e.data.port;
  firstHandler.call(self, e);
  for (const m of queued.splice(0)) reportTo.postMessage(m);
};
const report = (m) => (reportTo ? reportTo.postMessage(m) : queued.push(m));
`;

/** Every way out the worker realm offers, tried at once; each result goes into one report. */
const reachOut = (port: number) => String.raw`${REPORT}
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
  report({ type: "escape-report", tries });
})();`;

/**
 * The escape that poisons later verdicts (what a reused worker allowed): once it sees a run of a
 * program marked POISON, every result its worker posts says the expected sum, right or wrong,
 * on its worker's own port and on any port it has. FATAL forges a start-up failure of the whole
 * pool; CLOSE ends the worker mid-answer. FORGE turns on the frame that started the worker: it
 * wipes the files it was handed and posts the frame's own control messages (stop every answer,
 * fail every answer, a new setup, a new worker) when a program marked SLOW starts running in
 * another worker (the escaped code there says so on a BroadcastChannel: both share the frame's
 * origin), holding its own result meanwhile. FORGE THROW does so at once, then throws from the
 * worker's scope.
 */
const POISON = String.raw`
let stdin = "";
let started = null;
let holding = false;
const bc = new BroadcastChannel("escape-test");
// Ahead of the worker's own handlers, which run the program before a later listener would hear.
const handler = self.onmessage;
self.onmessage = (e) => {
  started ??= e.data;
  watch(e);
  handler.call(self, e);
};
const portOnMessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, "onmessage");
Object.defineProperty(MessagePort.prototype, "onmessage", {
  configurable: true,
  get() { return portOnMessage.get.call(this); },
  set(f) { portOnMessage.set.call(this, f && ((e) => { watch(e); f.call(this, e); })); },
});
const forge = (m) => {
  if (self.poisoned && m && m.type === "result" && m.outcome) {
    const sum = stdin.split(/\s+/).filter(Boolean).map(Number).reduce((a, b) => a + b, 0);
    m.outcome = { ...m.outcome, status: "ok", stdout: sum + "\n", error: undefined };
  }
  return m;
};
const selfPost = self.postMessage.bind(self);
self.postMessage = (m, t) => selfPost(forge(m), t);
const portPost = MessagePort.prototype.postMessage;
MessagePort.prototype.postMessage = function (m, t) {
  if (holding && m && m.type === "result") return;
  return portPost.call(this, forge(m), t);
};
function turnOnTheFrame() {
  for (const b of Object.values((started && started.files) || {})) if (b instanceof Uint8Array) b.fill(0);
  // Newest first: a relay that obeyed would end this worker at its own id and drop the rest.
  for (let id = 199; id >= 0; id--) {
    selfPost({ type: "stop", id });
    selfPost({ type: "host-error", id, message: "forged" });
    selfPost({ type: "result", id: String(id), outcome: { status: "ok", stdout: "", stderr: "", timeMs: 0 }, broken: false });
  }
  selfPost({ type: "setup", host: "postMessage('planted')", wasm: new Uint8Array(8), files: {} });
  selfPost({ type: "start", id: 1000 });
  selfPost("conductor-sandbox");
}
function watch(e) {
  const d = e.data;
  if (!d || d.type !== "run") return;
  stdin = String(d.request.stdin || "");
  const code = String(d.request.code);
  if (code.includes("FATAL")) postMessage({ type: "fatal", message: "forged by the program" });
  if (code.includes("CLOSE")) close();
  if (code.includes("SLOW")) bc.postMessage("running");
  if (code.includes("THROW")) setTimeout(() => { throw new Error("forged failure"); }, 0);
  if (code.includes("FORGE THROW")) turnOnTheFrame();
  else if (code.includes("FORGE")) {
    // Holds its worker until SLOW runs beside it (a worker it killed while starting would only
    // be replaced).
    holding = true;
    bc.onmessage = () => turnOnTheFrame();
  }
  if (!code.includes("POISON") || self.poisoned) return;
  self.poisoned = true;
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

test("a worker that turns on the frame it runs in reaches no other answer's worker or verdict", async ({
  page,
}) => {
  test.setTimeout(420_000);
  const escaped = new EscapedSandbox(page);
  await escaped.open(POISON);
  const forger = { answer: fence("# FORGE\nprint(3)"), tests: ADD };
  // Runs for about two seconds a test, so the forger's messages arrive while it runs.
  const slow = {
    answer: fence(
      "# SLOW\nimport time\nt = time.time()\nwhile time.time() - t < 2:\n    pass\n" +
        "a, b = map(int, input().split())\nprint(a + b)",
    ),
    tests: ADD,
  };
  const [, beside] = await escaped.score([forger, slow], { together: true, timeMs: 15_000 });
  expect(beside).toMatchObject({ correct: true });
  // A forger that also throws, beside honest answers starting or running in the same frame...
  const thrower = { answer: fence("# FORGE THROW\nprint(3)"), tests: ADD };
  const verdicts = await escaped.score([thrower, RIGHT, WRONG, RIGHT], { together: true });
  expect(verdicts.slice(1).map((v) => v.correct)).toEqual([true, false, true]);
  // ...and the answers after it get fresh workers from the frame's own files, unharmed.
  expect(await escaped.score([RIGHT, WRONG])).toMatchObject([
    { correct: true },
    { correct: false },
  ]);
});
