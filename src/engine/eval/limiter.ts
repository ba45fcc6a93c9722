import { ErrorCode } from "../errors.ts";
import type { ChatBackend } from "../llm/types.ts";
import { LlmError } from "../llm/types.ts";
import type { Worker } from "../schema/worker.ts";

/**
 * An adaptive concurrency gate for one endpoint origin: at most `limit` calls at once; a 429 halves
 * the limit, and each run of `limit * 8` successes raises it by one, up to the configured maximum.
 */
export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private streak = 0;
  limit: number;
  constructor(
    readonly max: number,
    private readonly adaptive = true,
  ) {
    this.limit = max;
  }

  /** Waits for a free slot; the returned function frees it. Rejects when `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new LlmError("aborted"));
      const take = () => {
        signal.removeEventListener("abort", onAbort);
        this.running++;
        let freed = false;
        resolve(() => {
          if (freed) return;
          freed = true;
          this.running--;
          this.pump();
        });
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(take);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new LlmError("aborted"));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(take);
      this.pump();
    });
  }

  private pump() {
    while (this.running < this.limit && this.waiting.length) this.waiting.shift()!();
  }

  rateLimited(): void {
    if (!this.adaptive) return;
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.streak = 0;
  }

  succeeded(): void {
    if (!this.adaptive || this.limit >= this.max) return;
    if (++this.streak >= this.limit * 8) {
      this.limit++;
      this.streak = 0;
      this.pump();
    }
  }

  get inFlight(): number {
    return this.running;
  }
}

/** Where a worker's calls go: its base URL's origin, or the one in-browser engine. */
export function originOf(w: Pick<Worker, "kind" | "baseURL">): string {
  if (w.kind === "webllm") return "webllm";
  try {
    return new URL(w.baseURL).origin;
  } catch {
    return w.baseURL || "unknown";
  }
}

/** One gate per origin; the in-browser model runs one generation at a time. */
export class OriginLimiter {
  private readonly gates = new Map<string, Gate>();
  constructor(readonly perOrigin = 4) {}

  gate(origin: string): Gate {
    let g = this.gates.get(origin);
    if (!g) {
      g = origin === "webllm" ? new Gate(1, false) : new Gate(this.perOrigin);
      this.gates.set(origin, g);
    }
    return g;
  }

  /** The limit now in force for each origin seen so far. */
  limits(): Record<string, number> {
    return Object.fromEntries([...this.gates].map(([o, g]) => [o, g.limit]));
  }

  /** Wraps a backend so that each call (each attempt, retries included) holds a slot of its origin. */
  wrap(backend: ChatBackend, origin: string): ChatBackend {
    const gate = this.gate(origin);
    return {
      label: backend.label,
      continuesAssistant: backend.continuesAssistant,
      async *stream(request, signal) {
        const release = await gate.acquire(signal);
        try {
          yield* backend.stream(request, signal);
          gate.succeeded();
        } catch (e: unknown) {
          if (e instanceof LlmError && e.code === ErrorCode.rate_limited) gate.rateLimited();
          throw e;
        } finally {
          release();
        }
      },
    };
  }
}
