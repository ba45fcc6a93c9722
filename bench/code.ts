import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Sandbox } from "../src/engine/eval/code/pool.ts";
import {
  createNodeSandbox,
  nodeSandboxName,
  nodeSandboxRefusal,
} from "../src/node/sandbox/process.ts";
import { createCodeScorer } from "../src/engine/eval/code/scorer.ts";
import { DEFAULT_LIMITS } from "../src/engine/eval/code/sandbox-types.ts";
import { detectConfinement } from "../src/node/sandbox/confine.ts";
import { PYODIDE_FILES } from "../src/node/vite/pyodide-assets.ts";

const TRIVIAL = { mode: "stdio" as const, code: "print(int(input()) + 1)", stdin: "41\n" };
const ITEM = {
  question: "Add two numbers.",
  tests: {
    style: "stdio",
    cases: Array.from({ length: 10 }, (_, i) => ({ input: `${i} ${i}\n`, output: `${2 * i}\n` })),
  },
};
const ANSWER = "```python\na, b = map(int, input().split())\nprint(a + b)\n```";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** What the app serves from pyodide/ (dist/pyodide/ after a build), raw and gzipped. */
function printRuntimeSize(): void {
  const dir = dirname(createRequire(import.meta.url).resolve("pyodide/package.json"));
  let raw = 0;
  let gz = 0;
  for (const name of PYODIDE_FILES) {
    const bytes = readFileSync(join(dir, name));
    raw += bytes.length;
    gz += gzipSync(bytes, { level: 6 }).length;
  }
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  console.log(
    `  runtime served from pyodide/ (fetched on first use): ${mb(raw)} raw, ${mb(gz)} gzip`,
  );
}

/**
 * The baseline: a plain `python3` subprocess per answer (no sandbox at all), its 10 tests run in
 * that one process, 2 answers at a time: what a confined process per answer costs beyond it.
 */
async function baselinePerSecond(n: number): Promise<number> {
  // the interpreter the sandbox confines, so the two differ only by the confinement
  const check = detectConfinement();
  const python = check.ok ? check.confinement.python : "python3";
  const cases = ITEM.tests.cases;
  const program = [
    "import io, sys",
    `for inp in ${JSON.stringify(cases.map((c) => c.input))}:`,
    "    sys.stdin = io.StringIO(inp)",
    "    a, b = map(int, input().split())",
    "    print(a + b)",
  ].join("\n");
  const one = () =>
    new Promise<void>((done, fail) => {
      const p = spawn(python, ["-I", "-S", "-c", program], {
        stdio: ["ignore", "pipe", "ignore"],
      });
      let out = "";
      p.stdout.on("data", (d: Buffer) => (out += d.toString()));
      p.on("close", () =>
        out === cases.map((c) => c.output).join("")
          ? done()
          : fail(new Error("baseline scored wrong")),
      );
    });
  const t0 = performance.now();
  let started = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (started < n) {
        started += 1;
        await one();
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

/** Waits until `n` interpreters are ready and unused; returns how long that took. */
async function settled(sandbox: Sandbox, n: number): Promise<number> {
  const t0 = performance.now();
  while ((sandbox.status().idle ?? 0) < n) await new Promise((r) => setTimeout(r, 2));
  return performance.now() - t0;
}

/**
 * Prints the code sandbox's figures: cold start, answers per second with a pristine interpreter
 * per answer (10 trivial tests each), the renewal of an interpreter, and a killed one's
 * replacement.
 */
export async function benchCode(): Promise<void> {
  console.log(`\nCode sandbox (${nodeSandboxName(false)}; a process forked per answer)`);
  console.log(`  machine before: ${machine()}`);
  const base = await baselinePerSecond(40);
  console.log(
    `  baseline, a plain python3 subprocess per answer (no sandbox), 2 at a time: ${base.toFixed(1)} answers/s`,
  );
  if (nodeSandboxRefusal(false)) {
    console.log(`  ${nodeSandboxRefusal(false)}`);
    return;
  }
  await benchSandbox(createNodeSandbox(), 40);
  console.log("\nCode sandbox, unconfined (Pyodide in permission-restricted Node processes)");
  printRuntimeSize();
  await benchSandbox(createNodeSandbox({ unconfined: true }), 10);
}

const machine = () =>
  `${cpus().length} cores, load average ${(loadavg()[0] ?? 0).toFixed(1)} (figures scale with it)`;

async function benchSandbox(sandbox: Sandbox, N: number): Promise<void> {
  try {
    let t0 = performance.now();
    await sandbox.warm();
    const cold = performance.now() - t0;
    const load = sandbox.status().lastLoadMs ?? 0;
    console.log(
      `  cold start: ${cold.toFixed(0)} ms to a ready interpreter (its own start ${load.toFixed(0)} ms)`,
    );
    await settled(sandbox, 2);

    const scorer = createCodeScorer({ sandbox });
    const signal = new AbortController().signal;
    for (const parallel of [1, 2]) {
      t0 = performance.now();
      let done = 0;
      await Promise.all(
        Array.from({ length: parallel }, async () => {
          while (done < N) {
            done += 1;
            const r = await scorer.score(ANSWER, ITEM, signal);
            if (!r.correct) throw new Error(`bench answer scored wrong: ${r.reason}`);
          }
        }),
      );
      const perSecond = N / ((performance.now() - t0) / 1000);
      console.log(
        `  10-test trivial answers, a pristine interpreter each, ${parallel} at a time: ${perSecond.toFixed(1)} answers/s (target 20)`,
      );
    }
    const renew = sandbox.status().lastLoadMs ?? 0;
    console.log(`  a fresh interpreter for the next answer ready after: ${renew.toFixed(0)} ms`);

    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      t0 = performance.now();
      await sandbox.run(TRIVIAL, DEFAULT_LIMITS);
      times.push(performance.now() - t0);
    }
    console.log(
      `  one-program answers back to back (each waits for a renewed interpreter): median ${median(times).toFixed(1)} ms`,
    );

    await settled(sandbox, 2);
    t0 = performance.now();
    await sandbox.run(
      { mode: "stdio", code: "while True: pass", stdin: "" },
      { ...DEFAULT_LIMITS, timeMs: 1000 },
    );
    console.log(
      `  a hanging program under a 1000 ms limit stopped after ${(performance.now() - t0).toFixed(0)} ms (target < 1500)`,
    );
    await settled(sandbox, 2);
    await sandbox.run(
      { mode: "stdio", code: "while True: pass", stdin: "" },
      { ...DEFAULT_LIMITS, timeMs: 200 },
    );
    t0 = performance.now();
    await sandbox.run(TRIVIAL, DEFAULT_LIMITS);
    const next = performance.now() - t0;
    const replaced = await settled(sandbox, 2);
    console.log(
      `  after a kill (200 ms limit): next program done ${next.toFixed(0)} ms later (on the spare); ` +
        `the killed worker replaced ${(next + replaced).toFixed(0)} ms after the kill (target 300)`,
    );
  } finally {
    sandbox.dispose();
  }
  console.log(`  machine after: ${machine()}`);
}
