import { EvalRun } from "../src/engine/eval/runner.ts";
import type { EvalResult, Evaluation } from "../src/engine/eval/schema.ts";
import { BENCH_PLAN, BENCH_WORKERS, benchEvaluation } from "./eval-setup.ts";
import { summarise } from "../src/engine/eval/report.ts";
import { mathScorer } from "../src/engine/eval/scorers/math.ts";
import { strategyName } from "../src/engine/eval/strategy.ts";
import { createFakeBackend } from "../src/test-support/engine/llm/fake-backend.ts";
import { createOpenAIBackend } from "../src/engine/llm/openai.ts";
import type { ChatBackend } from "../src/engine/llm/types.ts";
import { startServerProcess } from "./server-process.ts";

const QUESTIONS = Number(process.env.EVAL_BENCH_QUESTIONS ?? 200);
const LATENCY_MS = 50;
const CONCURRENCY = 8;

/**
 * 200 questions through 9 strategies against the local test server (50 ms per call) at a
 * concurrency of 8 on its one origin: wall time over the ideal (calls x latency / concurrency),
 * and the memory the evaluation used.
 */
export async function benchEval(): Promise<void> {
  // The server runs in its own process: its work is not the evaluation's, in time or in memory.
  const server = await startServerProcess({
    ...Object.fromEntries(
      BENCH_WORKERS.map((m) => [m, { content: "Answer: 7", latencyMs: LATENCY_MS }]),
    ),
    conductor: { content: BENCH_PLAN, latencyMs: LATENCY_MS },
  });
  try {
    const evaluation = benchEvaluation(QUESTIONS, {
      baseURL: server.baseURL,
      concurrency: CONCURRENCY,
    });
    const strategies = evaluation.strategies;
    const items = Array.from({ length: QUESTIONS }, (_, i) => ({
      id: `q${i}`,
      question: `Question ${i}: what is 3 + 4?`,
      expected: "7",
    }));
    // Each call's client-side duration, to tell the scheduler's overhead from HTTP's.
    let callMs = 0;
    let calls = 0;
    const backend = (model: string): ChatBackend => {
      const inner = createOpenAIBackend({ baseURL: server.baseURL, model });
      return {
        label: inner.label,
        continuesAssistant: inner.continuesAssistant,
        async *stream(request, signal) {
          const t = performance.now();
          calls++;
          try {
            yield* inner.stream(request, signal);
          } finally {
            callMs += performance.now() - t;
          }
        },
      };
    };
    const results: EvalResult[] = [];
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let peakHeap = heapBefore;
    const cpu0 = process.cpuUsage();
    const start = performance.now();
    const outcome = await new EvalRun({
      evaluation,
      items,
      scorer: mathScorer(),
      backendFor: (w) => backend(w.model),
      conductorBackend: backend("conductor"),
      onResult: (r) => {
        results.push(r);
        if (results.length % 100 === 0)
          peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      },
    }).run();
    const wall = performance.now() - start;
    const cpu = process.cpuUsage(cpu0);
    const ideal = (calls * LATENCY_MS) / CONCURRENCY;
    const measured = callMs / CONCURRENCY;
    const right = summarise(results, strategies.map(strategyName)).every((s) => s.accuracy === 1);
    console.log(
      `\nEvaluation: ${QUESTIONS} questions x ${strategies.length} strategies, ${LATENCY_MS} ms per call, concurrency ${CONCURRENCY}`,
    );
    console.log(
      `  ${outcome.done}/${outcome.total} results (${outcome.status}), all scored right: ${right}`,
    );
    console.log(
      `  ${calls} calls; wall ${(wall / 1000).toFixed(2)} s; ideal ${(ideal / 1000).toFixed(2)} s; ratio ${(wall / ideal).toFixed(3)} (target <= 1.10)`,
    );
    console.log(
      `  mean call ${(callMs / calls).toFixed(1)} ms as the client sees it; wall over (calls x mean call / concurrency): ${(wall / measured).toFixed(3)}`,
    );
    console.log(
      `  CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s in the evaluation's process (the test server has its own)`,
    );
    console.log(
      `  heap: ${(heapBefore / 2 ** 20).toFixed(1)} MiB before, peak ${(peakHeap / 2 ** 20).toFixed(1)} MiB (+${((peakHeap - heapBefore) / 2 ** 20).toFixed(1)} MiB); rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
    );
    await schedulerAlone(evaluation, items);
  } finally {
    await server.close();
  }
}

/** The same evaluation over in-process scripted backends (50 ms each, no HTTP): the scheduler's own overhead. */
async function schedulerAlone(
  evaluation: Evaluation,
  items: { id: string; question: string; expected: string }[],
) {
  let calls = 0;
  const fake = (text: string) =>
    createFakeBackend(() => {
      calls++;
      return { text, delayMs: LATENCY_MS };
    });
  const start = performance.now();
  await new EvalRun({
    evaluation,
    items,
    scorer: mathScorer(),
    backendFor: () => fake("Answer: 7"),
    conductorBackend: fake(BENCH_PLAN),
    onResult: () => undefined,
  }).run();
  const wall = performance.now() - start;
  const ideal = (calls * LATENCY_MS) / CONCURRENCY;
  console.log(
    `  scheduler alone (scripted in-process backends, no HTTP): ${calls} calls, wall ${(wall / 1000).toFixed(2)} s, ideal ${(ideal / 1000).toFixed(2)} s, ratio ${(wall / ideal).toFixed(3)}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchEval();
