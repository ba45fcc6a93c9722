/**
 * Messages between a sandbox host (the page, or the CLI process) and its interpreter worker (a Web
 * Worker, or a Node process). The host validates what comes back: a program that escaped the
 * Python guard could post too, so nothing a worker says is believed beyond its own answer.
 */
import { z } from "zod";
import type { RunLimits, RunRequest } from "./sandbox-types.ts";

export type HostMessage =
  /** The first message: start from this memory snapshot, or cold (null) and send one back. */
  | { type: "init"; snapshot: Uint8Array | null }
  | { type: "run"; id: string; request: RunRequest; limits: RunLimits }
  /** The answer is done: throw the interpreter away and make a fresh one, then say "ready". */
  | { type: "reset" };

export type RunMessage = Extract<HostMessage, { type: "run" }>;

export const RUN_STATUSES = [
  "ok",
  "syntax_error",
  "runtime_error",
  "timeout",
  "output_limit",
  "memory_limit",
  "crashed",
] as const;

export const outcomeSchema = z.object({
  status: z.enum(RUN_STATUSES),
  stdout: z.string(),
  stderr: z.string(),
  error: z.string().optional(),
  value: z.unknown().optional(),
  repr: z.string().optional(),
  notPlain: z.string().optional(),
  timeMs: z.number(),
});

export const workerMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready"), loadMs: z.number() }),
  z.object({ type: z.literal("progress"), loaded: z.number(), total: z.number() }),
  z.object({ type: z.literal("fatal"), message: z.string() }),
  /** A cold start's memory snapshot, sent before its first "ready" (so before any program). */
  z.object({ type: z.literal("snapshot"), bytes: z.instanceof(Uint8Array) }),
  z.object({
    type: z.literal("result"),
    id: z.string(),
    outcome: outcomeSchema,
    /** The interpreter cannot be used again (a limit hit mid-run, or a fatal Pyodide error). */
    broken: z.boolean(),
  }),
]);

export type WorkerMessage = z.infer<typeof workerMessageSchema>;
