/**
 * The code scorer as the evaluation mode registers it (id "code"): its sandbox comes from a
 * source called on the first answer scored, so Pyodide loads only when a code scorer runs. The CLI
 * passes a Node sandbox, the studio a browser one imported lazily; the caller disposes it.
 */
import type { Sandbox } from "./pool.ts";
import { CODE_SCORER_VERSION, createCodeScorer } from "./scorer.ts";
import type { RunLimits, Scorer } from "./sandbox-types.ts";

/** Where the code scorer gets its sandbox: called once, on the first answer scored. */
export type SandboxSource = () => Sandbox | Promise<Sandbox>;

/** Per-test limits, and the most a question set's `timeLimitMs` may ask for. */
export type CodeSettings = Partial<RunLimits> & { maxTimeLimitMs?: number };

const positiveInt = (v: unknown): v is number =>
  typeof v === "number" && Number.isInteger(v) && v > 0;

/**
 * The scorer's options as stored with an evaluation: `timeMs` overrides the per-test wall limit,
 * `maxTimeLimitMs` raises the 60 s cap on an item's `timeLimitMs` (the CLI's --max-time-limit).
 */
export function codeLimitsOf(options: Record<string, unknown>): CodeSettings {
  const out: CodeSettings = {};
  if (positiveInt(options.timeMs)) out.timeMs = options.timeMs;
  if (positiveInt(options.maxTimeLimitMs)) out.maxTimeLimitMs = options.maxTimeLimitMs;
  return out;
}

/** A code scorer that asks `source` for its sandbox only when it first scores an answer. */
export function lazyCodeScorer(source: SandboxSource, settings: CodeSettings = {}): Scorer {
  const { maxTimeLimitMs, ...limits } = settings;
  let inner: Promise<Scorer> | null = null;
  const get = () =>
    (inner ??= Promise.resolve()
      .then(source)
      .then((sandbox) =>
        createCodeScorer(
          maxTimeLimitMs === undefined ? { sandbox, limits } : { sandbox, limits, maxTimeLimitMs },
        ),
      ));
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
