import type { ChatMessage } from "../schema/usage.ts";
import type { Pool } from "../schema/worker.ts";

/** The Conductor's role (docs/protocol.md §1.4, message 1). */
export const DEFAULT_SYSTEM_PROMPT =
  "You coordinate a team of language models. You do not answer the user's question yourself: " +
  "you decide which models work on it, what each one is asked to do, and which earlier results " +
  "each one is shown, so that the team's final answer is as good as it can be.";

/**
 * The Conductor's instructions (docs/protocol.md §1.4, message 2) with the placeholders
 * `{{max_steps}}`, `{{question}}` and `{{workers}}`. The example model ids stay within 0..2 so they
 * rarely name a worker the pool lacks; the text says they are placeholders anyway.
 */
export const DEFAULT_TEMPLATE = `Plan how a team of language models will answer the user question below. Split the work into at most {{max_steps}} routing steps. Each step names three things:
- a model, by its id in the list of available models;
- a subtask: the instruction that model receives;
- an access list: which earlier steps that model is shown.

A subtask may ask its model to solve the whole question, to improve or correct an earlier answer, to check earlier work, or to do anything else that helps the steps after it, such as recalling facts, planning an approach or splitting the problem into parts.

How the steps run:
- The models run in the order you list them.
- The first model receives the user question and its own subtask.
- Every later model receives the user question, its own subtask, and the subtasks and responses of the earlier steps its access list names: ["all"] for every earlier step, [] for none, or 0-based step indices such as [0, 2].
- The user sees only the response of the last model, so the last subtask must produce the complete final answer.

An easy question needs a single step. A hard one gains from independent attempts followed by a check, or from a chain in which each model builds on the one before. Use no more steps than the question needs.

Write your reasoning first. Then end with exactly three Python lists of equal length, one entry per step, in this form:
model_id = [...]
subtasks = [...]
access_list = [...]
model_id holds integer model ids, subtasks holds one quoted string per step, and access_list holds one access list per step.

Three examples follow. Their model ids are placeholders: choose yours from the available models listed at the end.

EXAMPLE 1
Question: How many positive integers below 1000 are divisible by 7 but not by 11?
Reasoning: Counting questions invite off-by-one slips. Two models count independently, and a third compares their work and settles the number.
model_id = [1, 2, 0]
subtasks = ["Count the positive integers below 1000 that are divisible by 7 but not by 11. Show every step of the count.", "Independently count the positive integers below 1000 that are divisible by 7 but not by 11, using inclusion and exclusion, and state the final number.", "Two agents have counted the positive integers below 1000 that are divisible by 7 but not by 11. Compare their reasoning, find any mistake, and give the correct count as the final answer."]
access_list = [[], [], ["all"]]

EXAMPLE 2
Question: Write a Python function that returns the length of the longest strictly increasing subsequence of a list of integers in O(n log n) time.
Reasoning: The code is only as good as the method behind it. One model designs the method, a second implements it, and a third reviews both and returns the final code.
model_id = [0, 1, 2]
subtasks = ["Describe an O(n log n) method for the length of the longest strictly increasing subsequence, and state the invariant that makes it correct.", "Implement the method described by the previous agent as a Python function longest_increasing(nums: list[int]) -> int.", "Review the method and the implementation above, test them on edge cases such as an empty list and repeated values, fix any bug, and return the final Python function."]
access_list = [[], [0], ["all"]]

EXAMPLE 3
Question: What is the capital of Australia?
Reasoning: A single well-known fact. One model can answer it directly.
model_id = [0]
subtasks = ["Answer the question: what is the capital of Australia? Reply with the name of the city."]
access_list = [[]]

USER QUESTION:
{{question}}
END OF USER QUESTION

AVAILABLE LANGUAGE MODELS:
{{workers}}`;

/**
 * The start of the Conductor's reasoning, which the model continues (docs/protocol.md §1.4, message
 * 3).
 */
export const DEFAULT_OPENING =
  "Let me work out which models should handle which parts of this question.";

export interface ConductorPromptOptions {
  question: string;
  pool: Pool;
  maxSteps: number;
  /** Defaults to DEFAULT_TEMPLATE. */
  template?: string;
  /** Defaults to DEFAULT_SYSTEM_PROMPT. */
  systemPrompt?: string;
  /** Defaults to DEFAULT_OPENING; an empty string means no opening at all. */
  opening?: string;
  /** Worker lines carry name and note (prompted models) or only the id (the trained Conductor). */
  namedWorkers: boolean;
  /** Whether the backend continues a trailing assistant message. */
  continuesAssistant: boolean;
}

/**
 * Three messages (system, user, assistant opening) or, where the backend cannot continue an
 * assistant message, two with the opening folded into the end of the user message (as an
 * instruction to start the answer with it).
 */
export function buildConductorMessages(o: ConductorPromptOptions): ChatMessage[] {
  const user = fillTemplate(o.template ?? DEFAULT_TEMPLATE, {
    question: o.question,
    workers: workerLines(o.pool, o.namedWorkers),
    maxSteps: o.maxSteps,
  });
  return [
    { role: "system", content: o.systemPrompt ?? DEFAULT_SYSTEM_PROMPT },
    ...userTurn(user, o.opening ?? DEFAULT_OPENING, o.continuesAssistant),
  ];
}

/**
 * A user message followed by the opening: as a trailing assistant message the model continues, or
 * folded into the user message where the backend cannot continue one. Shared with refinement
 * rounds so both rounds present the opening the same way.
 */
export function userTurn(
  content: string,
  opening: string,
  continuesAssistant: boolean,
): ChatMessage[] {
  if (opening === "") return [{ role: "user", content }];
  if (continuesAssistant) {
    return [
      { role: "user", content },
      { role: "assistant", content: opening },
    ];
  }
  return [{ role: "user", content: `${content}\n\n${foldedOpening(opening)}` }];
}

/** The instruction that stands in for an assistant opening the backend cannot continue. */
export function foldedOpening(opening: string): string {
  return `Begin your reply with this sentence: "${opening}"`;
}

/**
 * One line per worker, in pool order: "Model id 0", or with `named` "Model id 0: Claude Sonnet 4 —
 * note". The Conductor itself (kind "conductor") is listed the same way. Whitespace inside names
 * and notes is collapsed so that each worker stays on exactly one line.
 */
export function workerLines(pool: Pool, named: boolean): string {
  return pool
    .map((worker, i) => {
      const id = `Model id ${i}`;
      if (!named) return id;
      const name = oneLine(worker.name);
      const note = oneLine(worker.note ?? "");
      const label = note ? `${name} — ${note}` : name;
      return label ? `${id}: ${label}` : id;
    })
    .join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

const PLACEHOLDER = /\{\{\s*(max_steps|question|workers)\s*\}\}/g;

function hasPlaceholder(template: string, name: string): boolean {
  return new RegExp(`\\{\\{\\s*${name}\\s*\\}\\}`).test(template);
}

/**
 * Fills `{{max_steps}}`, `{{question}}` and `{{workers}}` (spaces inside the braces allowed) in
 * one pass, so a question that itself contains "{{workers}}" is not filled in turn. Unknown
 * placeholders are left as they are. A template missing `{{question}}` or `{{workers}}` gets the
 * standard block for it appended, so the Conductor never plans without the question or the pool.
 */
export function fillTemplate(
  template: string,
  values: { question: string; workers: string; maxSteps: number },
): string {
  let text = template.replace(PLACEHOLDER, (_match, name: string) => {
    if (name === "question") return values.question;
    if (name === "workers") return values.workers;
    return String(values.maxSteps);
  });
  if (!hasPlaceholder(template, "question")) {
    text += `\n\nUSER QUESTION:\n${values.question}\nEND OF USER QUESTION`;
  }
  if (!hasPlaceholder(template, "workers")) {
    text += `\n\nAVAILABLE LANGUAGE MODELS:\n${values.workers}`;
  }
  return text;
}

/**
 * The placeholders a template lacks, e.g. `["{{workers}}"]`, for the editor to warn about.
 * `{{question}}` and `{{workers}}` are appended when missing; a missing `{{max_steps}}` only means
 * the Conductor is not told the cap (the parser still enforces it).
 */
export function templateProblems(template: string): string[] {
  return ["max_steps", "question", "workers"]
    .filter((name) => !hasPlaceholder(template, name))
    .map((name) => `{{${name}}}`);
}
