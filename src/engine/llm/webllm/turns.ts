import { LlmError } from "../types.ts";

/** Gives a turn back; calling it more than once is harmless. */
export type Release = () => void;

/**
 * A first-in, first-out lock: one holder at a time, the others wait in arrival order. A waiter
 * whose signal aborts leaves the line (rejecting with `LlmError("aborted")`) without ever holding it.
 */
export class TurnQueue {
  private held = false;
  private readonly line: { grant: (release: Release) => void }[] = [];

  /** How many callers are waiting (not counting the holder). */
  get waiting(): number {
    return this.line.length;
  }

  get busy(): boolean {
    return this.held;
  }

  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(new LlmError("aborted"));
    if (!this.held) {
      this.held = true;
      return Promise.resolve(this.releaser());
    }
    return new Promise<Release>((resolve, reject) => {
      const entry = {
        grant: (release: Release) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const at = this.line.indexOf(entry);
        if (at >= 0) this.line.splice(at, 1);
        reject(new LlmError("aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.line.push(entry);
    });
  }

  private releaser(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.line.shift();
      if (next) next.grant(this.releaser());
      else this.held = false;
    };
  }
}
