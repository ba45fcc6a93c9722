/**
 * The code scorer as the evaluation mode registers it (id "code"): its sandbox comes from a
 * source called on the first answer scored, so Pyodide loads only when a code scorer runs. The CLI
 * passes a Node sandbox, the studio a browser one imported lazily; the caller disposes it.
 */
import type { Sandbox } from "./pool.ts";
import { CODE_SCORER_VERSION, createCodeScorer } from "./scorer.ts";
import type { RunLimits, Scorer } from "./types.ts";

/** Where the code scorer gets its sandbox: called once, on the first answer scored. */
export type SandboxSource = () => Sandbox | Promise<Sandbox>;

/** The scorer's options as stored with an evaluation: `timeMs` overrides the per-test wall limit. */
export function codeLimitsOf(options: Record<string, unknown>): Partial<RunLimits> {
  const t = options.timeMs;
  return typeof t === "number" && Number.isInteger(t) && t > 0 ? { timeMs: t } : {};
}

/** A code scorer that asks `source` for its sandbox only when it first scores an answer. */
export function lazyCodeScorer(source: SandboxSource, limits: Partial<RunLimits> = {}): Scorer {
  let inner: Promise<Scorer> | null = null;
  const get = () =>
    (inner ??= Promise.resolve()
      .then(source)
      .then((sandbox) => createCodeScorer({ sandbox, limits })));
  return {
    id: "code",
    version: CODE_SCORER_VERSION,
    async score(answer, item, signal) {
      let scorer: Scorer;
      try {
        scorer = await get();
      } catch (e: unknown) {
        // A sandbox that cannot load leaves the item unscored, never wrong; the next item retries.
        inner = null;
        const why = e instanceof Error ? e.message : String(e);
        return { correct: null, score: 0, extracted: null, reason: `No Python sandbox: ${why}` };
      }
      return scorer.score(answer, item, signal);
    },
  };
}
