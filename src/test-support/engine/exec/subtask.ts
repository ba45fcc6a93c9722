import type { ChatRequest } from "../../../engine/llm/types.ts";

const SUBTASK = "Your assigned subtask: ";

/** The subtask a worker's request was given: what follows the last "Your assigned subtask: ". */
export function subtaskOf(request: ChatRequest): string {
  const user = request.messages[0]?.content ?? "";
  return user.slice(user.lastIndexOf(SUBTASK) + SUBTASK.length);
}

/** The answer the fake workers give a subtask when no reply is scripted for it. */
export function answerFor(subtask: string): string {
  return `Answer to "${subtask}".`;
}
