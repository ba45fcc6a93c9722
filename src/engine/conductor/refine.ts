import type { ChatMessage } from "../schema/usage.ts";
import { DEFAULT_OPENING, userTurn } from "./prompt.ts";

/**
 * The user message that shows the round's answer and asks for three empty lists (accept) or a new
 * workflow in the same format that corrects or verifies it (docs/protocol.md §1.6). `round` is the
 * round about to be planned: 1 for the first extra round.
 */
export function buildRefinementMessage(answer: string, round: number): string {
  const shown = answer.trim() === "" ? "(the team returned no answer)" : answer.trim();
  return `Your workflow has run. This is the answer it produced:

ANSWER:
${shown}
END OF ANSWER

You may now plan refinement round ${round}. First decide whether this answer is correct and complete.

If it is, accept it by ending with three empty lists:
model_id = []
subtasks = []
access_list = []

If it is wrong, incomplete or uncertain, write a new workflow in the same format as before whose last step produces a corrected or verified final answer; it replaces the answer above. If any step of the new workflow has the access list ["all"], every model in the new round is also shown the subtasks and responses of the round that just ran; otherwise the new round sees only the question and its own earlier steps.

Write your reasoning first, then the three lists.`;
}

/**
 * The Conductor conversation for a refinement round: the previous messages, the previous completion
 * as an assistant message, the refinement user message, and the opening again (as an assistant
 * message the model continues, or folded into the user message).
 */
export function buildRefinementConversation(
  previous: ChatMessage[],
  completion: string,
  answer: string,
  round: number,
  opts: { continuesAssistant: boolean; opening?: string },
): ChatMessage[] {
  const history = [...previous];
  const last = history.at(-1);
  if (last?.role === "assistant") {
    // The completion continued this opening: the model wrote one assistant turn, so the history
    // must hold one too. Two assistant messages in a row confuse chat templates.
    history[history.length - 1] = {
      role: "assistant",
      content: joinContinuation(last.content, completion),
    };
  } else {
    history.push({ role: "assistant", content: completion });
  }
  const opening = opts.opening ?? DEFAULT_OPENING;
  return [
    ...history,
    ...userTurn(buildRefinementMessage(answer, round), opening, opts.continuesAssistant),
  ];
}

/**
 * Joins an assistant opening and the text the model wrote after it. Some backends echo the opening
 * in the completion; it is not repeated then. A space is added only where neither side brings
 * whitespace, so "question." + "First" does not fuse into "question.First".
 */
function joinContinuation(opening: string, completion: string): string {
  if (opening.trim() !== "" && completion.trimStart().startsWith(opening.trim())) return completion;
  if (opening === "" || completion === "") return opening + completion;
  const needsSpace = !/\s$/.test(opening) && !/^\s/.test(completion);
  return needsSpace ? `${opening} ${completion}` : opening + completion;
}
