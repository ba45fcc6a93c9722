/**
 * The sandbox's contract, whatever the platform: what the code scorer and the UI see of it
 * (Sandbox, Lease, SandboxStatus) and what a platform supplies (WorkerPort). pool.ts implements it.
 */
import type { HostMessage } from "./protocol.ts";
import type { RunLimits, RunOutcome, RunRequest } from "./sandbox-types.ts";

/** The host's handle on one interpreter worker, whatever the platform. */
export interface WorkerPort {
  post(msg: HostMessage): void;
  /** Every message from the worker, unvalidated. */
  onMessage(cb: (data: unknown) => void): void;
  /** The worker died or failed to start. */
  onFailure(cb: (message: string) => void): void;
  terminate(): void;
}

export type RunResult =
  | { ok: true; outcome: RunOutcome }
  | { ok: false; code: "sandbox_failed" | "aborted"; message: string };

/** One answer's interpreter: its tests run here, then `close` hands it back to be renewed. */
export interface Lease {
  run(request: RunRequest, limits: RunLimits, signal?: AbortSignal): Promise<RunResult>;
  close(): void;
}

export type LeaseResult =
  ({ ok: true } & Lease) | { ok: false; code: "sandbox_failed" | "aborted"; message: string };

export type SandboxPhase = "idle" | "loading" | "ready" | "failed";

/** What the UI shows about the Python runtime (see CodeRuntimeNote). */
export interface SandboxStatus {
  phase: SandboxPhase;
  /** Bytes of the runtime fetched so far and in total, while the first interpreter downloads. */
  loaded: number;
  total: number;
  /** Workers started so far (each kill adds one) and how long the last start took. */
  starts: number;
  lastLoadMs: number | null;
  message: string | null;
  /** Interpreters ready and unused right now (the bench waits on it). */
  idle?: number;
}

/** The sandbox the code scorer runs programs in. */
export interface Sandbox {
  /** A pristine interpreter for one answer. */
  open(signal?: AbortSignal): Promise<LeaseResult>;
  /** One program in an interpreter of its own (an answer of one test). */
  run(request: RunRequest, limits: RunLimits, signal?: AbortSignal): Promise<RunResult>;
  /** Starts the workers now, so the first answer does not wait for the download. */
  warm(): Promise<void>;
  /** Arrow-typed (no `this`), so React's useSyncExternalStore can take them as they are. */
  status: () => SandboxStatus;
  subscribe: (cb: (s: SandboxStatus) => void) => () => void;
  dispose(): void;
}

export interface PoolOptions {
  spawn: () => WorkerPort;
  /** Workers kept, each holding one interpreter ready ahead of demand (default 2). */
  size?: number;
  /** Answers per worker before the worker itself is replaced (default 200). */
  maxAnswers?: number;
  /** How long a worker may take to start (default 60 s). */
  startTimeoutMs?: number;
  /** Random run ids; injectable for tests. */
  newId?: () => string;
}

/** A sandbox that has not started an interpreter yet. */
export const IDLE_STATUS: SandboxStatus = {
  phase: "idle",
  loaded: 0,
  total: 0,
  starts: 0,
  lastLoadMs: null,
  message: null,
};
