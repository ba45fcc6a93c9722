import type { ServerResponse } from "node:http";

/**
 * A point where the test server holds a reply until the test releases it: the way a test makes
 * "while this call is under way" certain instead of hoping a slow stream lasts long enough.
 */
export interface Gate {
  /** Resolves once `n` requests (default 1) have reached the gate since it was made. */
  reached(n?: number): Promise<void>;
  /** How many requests are held at the gate now. */
  readonly held: number;
  /** Lets every held request, and every later one, go on. */
  release(): void;
}

export interface GateInternal extends Gate {
  /** Holds `res` here until release, or until its client goes away. */
  pass(res: ServerResponse): Promise<void>;
}

export function createGate(): GateInternal {
  let arrived = 0;
  let held = 0;
  let open = false;
  let letGo: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (letGo = resolve));
  const watchers: { n: number; resolve: () => void }[] = [];
  return {
    reached(n = 1) {
      if (arrived >= n) return Promise.resolve();
      return new Promise((resolve) => watchers.push({ n, resolve }));
    },
    get held() {
      return held;
    },
    release() {
      open = true;
      letGo();
    },
    async pass(res) {
      // A client that left before reaching the gate (during a scripted latency) is not held: its
      // "close" has already fired and would never fire again.
      if (res.destroyed) return;
      arrived++;
      for (const w of watchers.filter((x) => arrived >= x.n)) {
        watchers.splice(watchers.indexOf(w), 1);
        w.resolve();
      }
      if (open) return;
      held++;
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("close", done);
          resolve();
        };
        res.once("close", done);
        void opened.then(done);
      });
      held--;
    },
  };
}
