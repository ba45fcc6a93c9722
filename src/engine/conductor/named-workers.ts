import type { ModelRecordLike } from "../llm/webllm/catalogue.ts";

/** What decides the default: which Conductor plans, and whether it is one being trained. */
interface ConductorIdentity {
  backend: "remote" | "webllm";
  model: string;
  webllmModelId: string;
  /** The Conductor is the policy being trained (the CLI's `prompts` and `reward`). */
  training?: boolean;
}

/**
 * Whether the Conductor should see worker names and notes (docs/protocol.md §1.4), and why: one
 * rule for the studio and the CLI. A trained Conductor (custom weights, an endpoint serving one, or
 * the policy being trained, whose prompts must match what it will be shown) saw only anonymous ids;
 * a prompted general model does better with names.
 */
export function namedWorkersAdvice(
  c: ConductorIdentity,
  customRecords: readonly ModelRecordLike[] = [],
): { on: boolean; reason: string } {
  if (c.training)
    return {
      on: false,
      reason:
        "Off by default: the Conductor being trained is shown workers as anonymous ids, as a trained Conductor is.",
    };
  if (c.backend === "webllm" && customRecords.some((r) => r.model_id === c.webllmModelId))
    return {
      on: false,
      reason:
        "Off by default: your own weights are a trained Conductor, which saw workers only as anonymous ids.",
    };
  if (c.backend === "remote" && /conductor/i.test(c.model))
    return {
      on: false,
      reason: `Off by default: "${c.model}" looks like a trained Conductor, which saw workers only as anonymous ids.`,
    };
  return {
    on: true,
    reason:
      "On by default: a prompted general model plans better when each worker line carries its name and note.",
  };
}
