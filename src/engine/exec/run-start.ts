import { unconstrainedPrompt } from "../conductor/constrain.ts";
import { formatLists } from "../conductor/format.ts";
import { numberedSteps, shownIds } from "../conductor/shown-ids.ts";
import { buildConductorMessages } from "../conductor/prompt.ts";
import { buildRefinementConversation } from "../conductor/refine.ts";
import { priorOf } from "../run/focus.ts";
import type { EventOf } from "../schema/events.ts";
import type { PlanRecord, RunRecord } from "../schema/record.ts";
import type { ChatMessage } from "../schema/usage.ts";
import type { Step } from "../schema/workflow.ts";
import type { StepOutcome } from "./execute.ts";
import type { PriorStep } from "./messages.ts";
import type { RunnerOptions } from "./runner-options.ts";
import { newId } from "../ids.ts";

/** A run id that sorts by start time and is unique enough to tell exports apart. */
export function newRunId(now: number = Date.now()): string {
  return newId("run", now);
}

/** The run_start of a run: who it is, what it asks, with which pool and Conductor. */
export function startEvent(
  o: RunnerOptions,
  limits: { maxSteps: number; maxRounds: number },
  at: number,
): EventOf<"run_start"> {
  return {
    type: "run_start",
    at,
    runId: o.run?.id ?? newRunId(at),
    question: o.question,
    pool: o.pool,
    ...(o.conductor ? { conductor: o.conductor } : {}),
    ...limits,
    kind: o.run?.kind ?? (o.start.from === "plan" ? "planned" : "manual"),
    parentId: o.run?.parentId ?? null,
    prompt: o.conductor
      ? { template: o.prompt?.template ?? "", namedWorkers: o.prompt?.namedWorkers ?? false }
      : null,
    ...(o.seed ? { seed: o.seed } : {}),
  };
}

/** Where the rounds loop starts: the Conductor's conversation, the answer and the round before. */
export interface RoundsStart {
  messages: ChatMessage[];
  answer: string | null;
  previous: PriorStep[] | undefined;
}

/**
 * The Conductor's conversation up to `round`: its plan's own conversation where the base recorded
 * it, else the first round's prompt; resuming at a refinement round's plan, the conversation
 * continues after the round before. With it, the earlier round's answer and steps.
 */
export function roundsStart(
  o: RunnerOptions,
  round: number,
  maxSteps: number,
  given?: PriorStep[],
): RoundsStart {
  const continuesAssistant = o.conductorBackend?.continuesAssistant ?? false;
  // Round 0 has no round before (rounds[-1] is undefined).
  const before = o.base?.rounds[round - 1];
  const answer = before?.answer ?? null;
  const previous = given ?? priorOf(before);
  const prompt = buildConductorMessages({
    question: o.question,
    pool: o.pool,
    maxSteps,
    namedWorkers: o.prompt?.namedWorkers ?? false,
    continuesAssistant,
    template: o.prompt?.template,
    systemPrompt: o.prompt?.systemPrompt,
    opening: o.prompt?.opening,
  });
  const first = conversationOf(o.base?.rounds[round]?.plan) ?? prompt;
  if (o.start.from !== "plan" || round === 0 || !o.base)
    return { messages: first, answer, previous };
  const raw = before?.plan?.raw || formatLists(numberedSteps(stepsOf(before), shownIds(o.pool)));
  // A round before that ran given steps had no plan: its conversation is the first prompt.
  const messages = buildRefinementConversation(
    conversationOf(before?.plan) ?? prompt,
    raw,
    answer ?? "",
    round,
    { continuesAssistant, opening: o.prompt?.opening },
  );
  return { messages, answer, previous };
}

/**
 * What a round's steps show the next round (docs/protocol.md §1.6): each step with its output, if
 * done.
 */
export function priorSteps(steps: Step[], outcomes: StepOutcome[]): PriorStep[] {
  return steps.map((s, i) => {
    const o = outcomes[i];
    return { worker: s.worker, subtask: s.subtask, output: o?.status === "done" ? o.output : "" };
  });
}

/**
 * The Conductor's conversation a recorded plan stands for, as the run that planned it went on with
 * it: the messages it sent, with the opening a plan grammar left out of them folded back in.
 */
function conversationOf(plan: PlanRecord | null | undefined): ChatMessage[] | undefined {
  return plan ? unconstrainedPrompt(plan.messages, plan.opening) : undefined;
}

function stepsOf(round: RunRecord["rounds"][number] | undefined): Step[] {
  return (round?.steps ?? []).map((s) => ({
    worker: s.worker,
    subtask: s.subtask,
    access: s.access,
  }));
}
