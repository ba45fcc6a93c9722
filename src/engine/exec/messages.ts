import { modelIdOf } from "../conductor/shown-ids.ts";
import { foldedOpening } from "../conductor/prompt.ts";
import type { ChatMessage } from "../schema/usage.ts";
import type { Worker } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import { visibleSteps } from "../schema/workflow.ts";

/** The opening of every worker message (docs/protocol.md §1.5). */
export const WORKER_PREAMBLE =
  "You are one member of a team of AI agents working on a larger task, and you are responsible " +
  "for one subtask of it. The overall task is shown below. Subtasks given to other agents and " +
  "their responses may also be shown, inside tags. Use whatever helps you, but check it for " +
  "mistakes rather than trusting it, then carry out your own subtask.";

/** The optional assistant prefill that opens a step-by-step answer. */
export const WORKER_PREFILL = "Let's work through this step by step.";

/**
 * How a worker's prefill is sent: as a trailing assistant message the model continues, folded into
 * the user message as an instruction (a model that cannot continue an assistant message: WebLLM
 * rejects one, so the in-browser model gets it folded, as docs/protocol.md §1.4 does for the
 * Conductor), or not.
 */
export type PrefillMode = "assistant" | "folded" | "none";

/** The prefill mode of a worker (undefined: a step whose worker is not in the pool). */
export function prefillModeOf(worker: Pick<Worker, "kind" | "prefill"> | undefined): PrefillMode {
  if (!worker?.prefill) return "none";
  return worker.kind === "webllm" ? "folded" : "assistant";
}

/**
 * A step of the previous round with its output, as shown to the next round (docs/protocol.md §1.6).
 */
export interface PriorStep {
  /** The step's worker id. */
  worker: string;
  subtask: string;
  output: string;
}

export interface WorkerMessageInput {
  question: string;
  steps: Step[];
  /**
   * The pool's worker ids in order: a step's agent number in the tags is its worker's place here,
   * the number the Conductor knows it by (docs/protocol.md §1.5).
   */
  workerIds: readonly string[];
  index: number;
  /** Outputs of this round's steps so far, by step index. */
  outputs: (string | undefined)[];
  /** The steps of the previous round, in a refinement round. */
  previousRound?: PriorStep[];
  /** `true` is "assistant"; `prefillModeOf(worker)` gives the mode a worker's backend can take. */
  prefill?: boolean | PrefillMode;
}

/**
 * Whether the previous round is shown: true exactly when any step of this round has access "all"
 * (docs/protocol.md §1.6).
 */
export function roundSeesPrevious(steps: Step[]): boolean {
  return steps.some((step) => step.access === "all");
}

/**
 * The messages a step's worker receives: one user message (and an assistant prefill if enabled,
 * or the prefill folded into the user message where the model cannot continue one).
 * Previous-round blocks go to every step of a round that sees the previous round, whatever the
 * step's own access: docs/protocol.md §1.6 says every worker of that round sees it, and a step with
 * `[]` that refines the old answer needs it most.
 */
export function buildWorkerMessages(input: WorkerMessageInput): ChatMessage[] {
  const step = input.steps[input.index];
  if (!step) throw new RangeError(`No step ${input.index} in a workflow of ${input.steps.length}`);

  const blocks = [WORKER_PREAMBLE, tagged("overall_task", input.question)];
  if (input.previousRound && roundSeesPrevious(input.steps)) {
    for (const prior of input.previousRound) {
      if (isEmpty(prior.output)) continue;
      const k = agentOf(input.workerIds, prior.worker);
      blocks.push(tagged(`Previous round subtask assigned to Agent ${k}`, prior.subtask));
      blocks.push(tagged(`Previous round Agent ${k} response`, prior.output));
    }
  }
  for (const i of visibleSteps(step.access, input.index)) {
    const earlier = input.steps[i];
    const output = input.outputs[i];
    if (!earlier || output === undefined || isEmpty(output)) continue;
    const m = agentOf(input.workerIds, earlier.worker);
    blocks.push(tagged(`Subtask assigned to Agent ${m}`, earlier.subtask));
    blocks.push(tagged(`Agent ${m} response`, output));
  }
  blocks.push(`Your assigned subtask: ${step.subtask}`);

  const mode = input.prefill === true ? "assistant" : input.prefill || "none";
  if (mode === "folded") blocks.push(foldedOpening(WORKER_PREFILL));
  const messages: ChatMessage[] = [{ role: "user", content: blocks.join("\n\n") }];
  if (mode === "assistant") messages.push({ role: "assistant", content: WORKER_PREFILL });
  return messages;
}

/** A step's agent number in the tags; "?" for a worker that is no longer in the pool. */
function agentOf(ids: readonly string[], worker: string): string {
  const m = modelIdOf(ids, worker);
  return m >= 0 ? String(m) : "?";
}

/** `<tag>\ntext\n</tag>`: the content sits on its own lines so long answers stay readable. */
function tagged(tag: string, text: string): string {
  return `<${tag}>\n${text.trim()}\n</${tag}>`;
}

function isEmpty(text: string): boolean {
  return text.trim() === "";
}
