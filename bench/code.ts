import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { createNodeSandbox } from "../src/engine/eval/code/node.ts";
import { createCodeScorer } from "../src/engine/eval/code/scorer.ts";
import { DEFAULT_LIMITS } from "../src/engine/eval/code/types.ts";
import { PYODIDE_FILES } from "../src/engine/eval/code/vite-plugin.ts";

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

/** Prints the code sandbox's figures: cold start, trivial programs per second, restart after a kill. */
export async function benchCode(): Promise<void> {
  console.log("\nCode sandbox (Pyodide in a Node worker thread)");
  printRuntimeSize();
  const sandbox = createNodeSandbox();
  try {
    let t0 = performance.now();
    await sandbox.warm();
    const cold = performance.now() - t0;
    const load = sandbox.status().lastLoadMs ?? 0;
    console.log(
      `  cold start: ${cold.toFixed(0)} ms to a ready interpreter (Pyodide's own load ${load.toFixed(0)} ms)`,
    );

    const N = 300;
    t0 = performance.now();
    for (let i = 0; i < N; i++) await sandbox.run(TRIVIAL, DEFAULT_LIMITS);
    const perSecond = N / ((performance.now() - t0) / 1000);
    console.log(`  trivial program, warm interpreter reused: ${perSecond.toFixed(0)} programs/s`);

    const scorer = createCodeScorer({ sandbox });
    const signal = new AbortController().signal;
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      t0 = performance.now();
      await scorer.score(ANSWER, ITEM, signal);
      times.push(performance.now() - t0);
    }
    console.log(
      `  scoring an item of 10 stdin/stdout tests: median ${median(times).toFixed(1)} ms`,
    );

    t0 = performance.now();
    await sandbox.run(
      { mode: "stdio", code: "while True: pass", stdin: "" },
      { ...DEFAULT_LIMITS, timeMs: 200 },
    );
    await sandbox.run(TRIVIAL, DEFAULT_LIMITS);
    const restart = performance.now() - t0 - 200;
    console.log(
      `  after a kill (200 ms limit): next program done ${restart.toFixed(0)} ms later (fresh interpreter)`,
    );
  } finally {
    sandbox.dispose();
  }
  const load = loadavg()[0] ?? 0;
  console.log(
    `  machine: ${cpus().length} cores, load average ${load.toFixed(1)} (figures scale with it)`,
  );
}
