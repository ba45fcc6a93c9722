// A scripted Python sandbox for tests of code scoring (the real Pyodide runs in
// src/engine/eval/code/sandbox.node.test.ts): it "runs" a program by name, and records what it ran.
import type { Sandbox } from "../../../../engine/eval/code/pool.ts";
import { IDLE_STATUS, leaseOver } from "../../../../engine/eval/code/pool.ts";
import type { RunRequest } from "../../../../engine/eval/code/sandbox-types.ts";

export interface SummingSandbox extends Sandbox {
  /** Every request run, in order. */
  runs: RunRequest[];
  /** Each run's time limit (ms), in order. */
  limits: number[];
  /** How many times it was disposed. */
  disposed: number;
}

/**
 * A program that mentions `sum` prints the sum of the numbers on stdin; any other prints nothing.
 * Every run succeeds and reports `timeMs`.
 */
export function summingSandbox(timeMs = 2): SummingSandbox {
  const run: Sandbox["run"] = (request, limits) => {
    box.runs.push(request);
    box.limits.push(limits.timeMs);
    const stdin = request.mode === "stdio" ? request.stdin : "";
    const sum = stdin
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
      .reduce((a, b) => a + b, 0);
    const stdout = request.code.includes("sum") ? `${sum}\n` : "";
    return Promise.resolve({ ok: true, outcome: { status: "ok", stdout, stderr: "", timeMs } });
  };
  const box: SummingSandbox = {
    runs: [],
    limits: [],
    disposed: 0,
    run,
    open: leaseOver(run),
    warm: () => Promise.resolve(),
    status: () => IDLE_STATUS,
    subscribe: () => () => undefined,
    dispose: () => void box.disposed++,
  };
  return box;
}
