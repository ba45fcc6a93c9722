// An evaluation at scale: 1,000 and 10,000 questions through 9 strategies over in-process scripted
// backends, each result streamed to a JSON-lines file as the CLI writes it. Memory should not
// grow with the number of items: the peak heap is printed for both sizes.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { lineWriter } from "../src/cli/commands/eval-files.ts";
import { EvalRun } from "../src/engine/eval/runner.ts";
import { mathScorer } from "../src/engine/eval/scorers/math.ts";
import type { ChatBackend } from "../src/engine/llm/types.ts";
import { BENCH_PLAN, benchEvaluation } from "./eval-setup.ts";

/**
 * A full garbage collection, so that a peak is live memory rather than garbage not yet collected:
 * node's own `gc` under --expose-gc, else the same function switched on at run time.
 */
function collector(): () => void {
  const own = globalThis.gc;
  if (own) return () => void own();
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as (() => void) | undefined;
  return gc ?? (() => undefined);
}

/**
 * A backend that answers `text` at once and keeps nothing (the test fake records every request,
 * which would be the bench's own leak).
 */
function scripted(text: string): ChatBackend {
  return {
    label: "scripted",
    continuesAssistant: false,
    async *stream(request) {
      await Promise.resolve();
      yield { type: "delta", text };
      const prompt = request.messages.reduce((n, m) => n + m.content.length, 0);
      yield {
        type: "usage",
        usage: { promptTokens: Math.ceil(prompt / 4), completionTokens: 60, estimated: false },
      };
    },
  };
}

/** Runs `size` questions; returns the peak heap over the run, sampled every 500 results after a GC. */
async function one(size: number, dir: string) {
  const items = Array.from({ length: size }, (_, i) => ({
    id: `q${i}`,
    question: `Question ${i}: what is 3 + 4? `.repeat(4),
    expected: "7",
  }));
  const answer = `Adding 3 and 4 step by step gives 7. `.repeat(20) + "Answer: 7";
  // As the CLI writes --out: one appended line per result, in order.
  const write = lineWriter(join(dir, `results-${size}.jsonl`));
  const gc = collector();
  gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  let results = 0;
  const start = performance.now();
  const outcome = await new EvalRun({
    evaluation: benchEvaluation(size, {
      baseURL: "http://bench.invalid/v1",
      concurrency: 16,
      price: { input: 1, output: 2 },
    }),
    items,
    scorer: mathScorer(),
    backendFor: () => scripted(answer),
    conductorBackend: scripted(BENCH_PLAN),
    onResult: async (r) => {
      await write(r);
      if (++results % 500 === 0) {
        gc?.();
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }
    },
  }).run();
  return { outcome, before, peak, seconds: (performance.now() - start) / 1000 };
}

/** Prints the peak heap of a 1,000- and a 10,000-question evaluation (target: the same within 20%). */
export async function benchEvalMemory(sizes = [1_000, 10_000]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "conductor-eval-memory-"));
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
  try {
    console.log(
      "\nEvaluation memory: 9 strategies, results streamed to disk, heap after a full GC",
    );
    const peaks: number[] = [];
    const growth: number[] = [];
    for (const size of sizes) {
      const r = await one(size, dir);
      peaks.push(r.peak);
      growth.push(r.peak - r.before);
      console.log(
        `  ${size} questions: ${r.outcome.done}/${r.outcome.total} results in ${r.seconds.toFixed(1)} s; heap ${mib(r.before)} before, peak ${mib(r.peak)} (+${mib(r.peak - r.before)})`,
      );
    }
    if (peaks.length === 2)
      console.log(
        `  ${sizes[1]} / ${sizes[0]} questions: peak heap ${(peaks[1]! / peaks[0]!).toFixed(2)} (target: at most 1.20; "before" holds the questions themselves), growth over it ${growth[1]! - growth[0]! >= 0 ? "+" : ""}${mib(growth[1]! - growth[0]!)}`,
      );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  await benchEvalMemory(
    process.argv
      .slice(2)
      .map(Number)
      .filter((n) => n > 0).length
      ? process.argv.slice(2).map(Number)
      : undefined,
  );
