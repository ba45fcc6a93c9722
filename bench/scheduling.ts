import { createFakeBackend } from "../src/test-support/engine/llm/fake-backend.ts";
import { executeWorkflow } from "../src/engine/exec/execute.ts";
import type { Pool } from "../src/engine/schema/worker.ts";
import type { Access, Step } from "../src/engine/schema/workflow.ts";
import { visibleSteps } from "../src/engine/schema/workflow.ts";

interface Shape {
  name: string;
  access: Access[];
  /** Scripted latency of each step in milliseconds. */
  latencyMs: number[];
}

export const SHAPES: Shape[] = [
  { name: "two attempts + checker", access: [[], [], "all"], latencyMs: [400, 350, 200] },
  {
    name: "four attempts + judge",
    access: [[], [], [], [], "all"],
    latencyMs: [300, 380, 260, 400, 200],
  },
  {
    name: "plan -> two branches -> merge",
    access: [[], [0], [0], [1, 2]],
    latencyMs: [200, 400, 350, 200],
  },
];

/** The longest chain of dependent latencies: the least time any correct executor can take. */
export function criticalPath(shape: Shape): number {
  const finish: number[] = [];
  shape.access.forEach((access, i) => {
    const ready = Math.max(0, ...visibleSteps(access, i).map((d) => finish[d] ?? 0));
    finish.push(ready + (shape.latencyMs[i] ?? 0));
  });
  return Math.max(...finish);
}

async function wallTime(shape: Shape): Promise<number> {
  const pool: Pool = shape.latencyMs.map((_, i) => ({
    id: `w${i}`,
    name: `Worker ${i}`,
    kind: "openai",
    baseURL: "",
    model: `m${i}`,
    temperature: 0.2,
    maxTokens: 256,
    prefill: false,
  }));
  const backends = pool.map((_, i) =>
    createFakeBackend([{ text: `answer ${i} `.repeat(20), delayMs: shape.latencyMs[i] }]),
  );
  const steps: Step[] = shape.access.map((access, i) => ({
    worker: `w${i}`,
    subtask: `part ${i}`,
    access,
  }));
  const start = performance.now();
  const run = executeWorkflow({
    question: "benchmark",
    steps,
    pool,
    backendFor: (w) => backends[Number(w.id.slice(1))]!,
    signal: new AbortController().signal,
  });
  for await (const _ of run) {
    // drain
  }
  return performance.now() - start;
}

/** Prints, per shape, wall time / critical path for our executor and the strictly sequential one. */
export async function benchScheduling(): Promise<void> {
  console.log("Execution wall time / critical path (target <= 1.05)");
  console.log("shape                              wall ms  critical ms  ratio  sequential ratio");
  for (const shape of SHAPES) {
    const critical = criticalPath(shape);
    const runs = [await wallTime(shape), await wallTime(shape), await wallTime(shape)];
    const wall = runs.sort((a, b) => a - b)[1]!; // the median of three
    const sequential = shape.latencyMs.reduce((a, b) => a + b, 0) / critical;
    console.log(
      `${shape.name.padEnd(34)} ${wall.toFixed(0).padStart(7)}  ${String(critical).padStart(11)}  ${(wall / critical).toFixed(3)}  ${sequential.toFixed(2)}`,
    );
  }
}
