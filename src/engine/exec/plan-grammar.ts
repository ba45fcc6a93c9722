import { ErrorCode } from "../errors.ts";
import { buildPlanGrammar } from "../conductor/grammar.ts";
import type { PlanGrammarMode } from "../conductor/constrain.ts";
import { constrainedPrompt, grammarFields } from "../conductor/constrain.ts";
import type { ChatRequest } from "../llm/types.ts";
import { LlmError } from "../llm/types.ts";

/**
 * The Conductor request under the plan grammar for `mode`: the grammar built from the pool size,
 * the step cap and the round, with the opening as its fixed prefix (and no longer asked for in the
 * prompt), in the fields the backend reads. `opening` is the opening whose instruction the prompt
 * lost, for the record (the conversation a later round continues still asks for it); absent when
 * the prompt is unchanged. The request is unchanged when `mode` is off.
 */
export function constrainedRequest(
  request: ChatRequest,
  mode: PlanGrammarMode,
  o: { workers: number; maxSteps: number; round: number },
): { request: ChatRequest; opening?: string } {
  if (mode === "off") return { request };
  const prompt = constrainedPrompt(request.messages);
  const grammar = buildPlanGrammar({
    workers: o.workers,
    maxSteps: o.maxSteps,
    round: o.round,
    opening: prompt.prefix,
  });
  const constrained = { ...request, messages: prompt.messages, ...grammarFields(mode, grammar) };
  return { request: constrained, ...(prompt.folded ? { opening: prompt.prefix } : {}) };
}

/** The message to show when a grammar the backend compiles itself failed; undefined otherwise. */
export function grammarProblem(e: unknown, request: ChatRequest): string | undefined {
  if (
    request.grammar === undefined ||
    !(e instanceof LlmError) ||
    e.code !== ErrorCode.grammar_failed
  )
    return undefined;
  return e.message;
}
