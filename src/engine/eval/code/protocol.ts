/**
 * Messages between a sandbox host (the page, or the Node process) and its interpreter worker.
 * The host validates what comes back: a program that escaped the Python guard could post too.
 */
import { z } from "zod";
import type { RunLimits, RunRequest } from "./types.ts";

export interface RunMessage {
  type: "run";
  /** A random id per run; a reply without it is ignored. */
  id: string;
  request: RunRequest;
  limits: RunLimits;
}

const outcome = z.object({
  status: z.enum([
    "ok",
    "syntax_error",
    "runtime_error",
    "timeout",
    "output_limit",
    "memory_limit",
    "crashed",
  ]),
  stdout: z.string(),
  stderr: z.string(),
  error: z.string().optional(),
  passed: z.boolean().optional(),
  actual: z.string().optional(),
  timeMs: z.number(),
});

export const workerMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready"), loadMs: z.number() }),
  z.object({ type: z.literal("progress"), loaded: z.number(), total: z.number() }),
  z.object({ type: z.literal("fatal"), message: z.string() }),
  z.object({
    type: z.literal("result"),
    id: z.string(),
    outcome,
    /** The interpreter's WebAssembly memory after the run; over the limit it is replaced. */
    heapBytes: z.number(),
    /** The interpreter can no longer be used (a fatal Pyodide error). */
    broken: z.boolean(),
  }),
]);

export type WorkerMessage = z.infer<typeof workerMessageSchema>;
