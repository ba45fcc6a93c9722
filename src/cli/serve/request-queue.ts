// Admission for `serve`: at most `concurrency` runs at once, a bounded line of waiting requests,
// and "full" past it (the caller answers 429).

export type Admission =
  { ok: true; release: () => void } | { ok: false; reason: "full" | "aborted" | "closed" };

interface Waiter {
  admit: (a: Admission) => void;
}

export class RunQueue {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private closed = false;

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  get active(): number {
    return this.running;
  }
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Resolves with a slot (call `release` exactly once when the run is over), or with why not: the
   * line is full, `signal` aborted while waiting (the client left), or the queue was closed.
   */
  acquire(signal?: AbortSignal): Promise<Admission> {
    if (this.closed) return Promise.resolve({ ok: false, reason: "closed" });
    if (signal?.aborted) return Promise.resolve({ ok: false, reason: "aborted" });
    if (this.running < this.concurrency) return Promise.resolve(this.slot());
    if (this.waiting.length >= this.maxWaiting)
      return Promise.resolve({ ok: false, reason: "full" });
    return new Promise((resolve) => {
      const waiter: Waiter = {
        admit: (a) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(a);
        },
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        waiter.admit({ ok: false, reason: "aborted" });
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Refuses new requests and turns away everyone still waiting; running slots are unaffected. */
  close(): void {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.admit({ ok: false, reason: "closed" });
  }

  private slot(): Admission {
    this.running++;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.running--;
        const next = this.waiting.shift();
        if (next) next.admit(this.slot());
      },
    };
  }
}
