import type {
  ChatBody,
  Gate,
  RecordedRequest,
  Reply,
  ReplySpec,
  ScriptedUsage,
  TestServer,
} from "../server/server.ts";

/** One worker of the seeded pool: its display name and the model name the test server answers to. */
export interface PoolWorker {
  name: string;
  model: string;
}

/** The pool every spec uses: three workers on the local test server, told apart by model name. */
export const WORKERS = [
  { name: "Solver GPT", model: "solver-gpt" },
  { name: "Checker Claude", model: "checker-claude" },
  { name: "Judge Qwen", model: "judge-qwen" },
] as const satisfies readonly PoolWorker[];

export const CONDUCTOR_MODEL = "conductor-7b-test";

/** What the scripted Conductor reports for a plan where a spec counts tokens or costs. */
export const PLAN_USAGE = { prompt_tokens: 400, completion_tokens: 80 };

export const QUESTION = "Is 391 a prime number? Explain briefly.";

/** The three lists of a plan (docs/protocol.md §1.2). */
export interface PlanLists {
  model_id: number[];
  subtasks: string[];
  access_list: ("all" | number[])[];
}

/** Independent attempts, then a judge that sees both: the Conductor's most common learned shape. */
export const ATTEMPTS_THEN_JUDGE: PlanLists = {
  model_id: [0, 1, 2],
  subtasks: [
    "Decide whether 391 is prime by trial division up to its square root.",
    "Independently factor 391, or show that it has no factor.",
    "Compare both answers, fix any mistake, and give the final answer with a one-line reason.",
  ],
  access_list: [[], [], "all"],
};

/** A chain where each step reads only the one before: its edges never overlap on the canvas. */
export const CHAIN: PlanLists = {
  model_id: [0, 1, 2],
  subtasks: [
    "Factor 391 by trial division.",
    "Check the factorisation of the previous agent.",
    "Write the final answer for the user.",
  ],
  access_list: [[], [0], [1]],
};

const pyString = (s: string) => JSON.stringify(s);
const pyAccess = (a: "all" | number[]) => (a === "all" ? '["all"]' : `[${a.join(", ")}]`);

/** The reasoning the scripted Conductor writes above its lists unless a spec gives its own. */
const REASONING = [
  "The question is a short arithmetic check, but a single model can slip on factoring, so two",
  "workers attempt it independently and a third compares their answers before replying.",
  "",
].join("\n");

/** What a Conductor writes: free-text reasoning, then the three Python-style list assignments. */
export function conductorText(lists: PlanLists, reasoning = REASONING): string {
  return [
    reasoning,
    `model_id = [${lists.model_id.join(", ")}]`,
    `subtasks = [${lists.subtasks.map(pyString).join(", ")}]`,
    `access_list = [${lists.access_list.map(pyAccess).join(", ")}]`,
  ].join("\n");
}

/** The text cut into pieces of `size` characters, for a reply streamed in small chunks. */
export function piecesOf(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

/** A reply streamed as many small chunks with a delay between them, so a test can watch it arrive. */
export function slowly(text: string, size = 4, chunkDelayMs = 15): ReplySpec {
  return { chunks: piecesOf(text, size), chunkDelayMs };
}

/** Every chat-completion call the server received (preflights excluded). */
export function chatCalls(server: TestServer): RecordedRequest[] {
  return server.requests.filter((r) => r.method === "POST" && r.path === "/v1/chat/completions");
}

/** The chat-completion calls the server received for one model (preflights excluded). */
export function callsTo(server: TestServer, model: string): RecordedRequest[] {
  return chatCalls(server).filter(
    (r) =>
      typeof r.body === "object" && r.body !== null && "model" in r.body && r.body.model === model,
  );
}

/** A message's text: its string, else its parts as JSON. */
const textOfContent = (content: unknown) =>
  typeof content === "string" ? content : JSON.stringify(content);

/** Every message of a chat request as one text: what a scripted reply searches for its question. */
export function messagesText(body: ChatBody): string {
  return body.messages.map((m) => textOfContent(m.content)).join("\n");
}

/** The last user message of a chat request: what tells a plan, a nested plan and a step apart. */
export function lastUserText(body: ChatBody): string {
  return textOfContent(body.messages.findLast((m) => m.role === "user")?.content);
}

/** The `n` of a "What is n plus one?" question that a request asks (NaN for any other). */
export function askedNumber(body: ChatBody): number {
  return Number(/What is (\d+) plus one\?/.exec(JSON.stringify(body.messages))?.[1] ?? NaN);
}

/**
 * A question set as JSON lines: "What is n plus one?" for each n (ids q1, q2, ...), answered n + 1,
 * each item with `fields(n)` added.
 */
export function plusOneQuestions(
  numbers: readonly number[],
  fields: (n: number) => Record<string, unknown> = () => ({}),
): string {
  return numbers
    .map((n, i) =>
      JSON.stringify({
        id: `q${i + 1}`,
        question: `What is ${n} plus one?`,
        answer: String(n + 1),
        ...fields(n),
      }),
    )
    .join("\n");
}

/** Scripts the Conductor's next plan: `lists` as it writes them, with `extra` (usage, delays). */
export function scriptPlan(
  server: TestServer,
  lists: PlanLists = ATTEMPTS_THEN_JUDGE,
  extra: Omit<ReplySpec, "content"> = {},
) {
  server.script(CONDUCTOR_MODEL, { content: conductorText(lists), ...extra });
}

/** Every worker of the pool answers with `reply(worker)` unless a test scripts it otherwise. */
export function scriptAnswers(server: TestServer, reply: (worker: PoolWorker) => Reply) {
  for (const w of WORKERS) server.setDefault(w.model, reply(w));
}

/** Scripts the Conductor's plan and one default answer per worker (`Answer from <name>`). */
export function scriptPlanAndAnswers(server: TestServer, lists: PlanLists = ATTEMPTS_THEN_JUDGE) {
  scriptPlan(server, lists);
  scriptAnswers(server, (w) => `Answer from ${w.name}.`);
}

/**
 * Each worker numbers its answers (`<name> answer #n.`), so the n-th run's outputs all end in
 * "#n."; `usage(n)`, where given, is what its n-th answer reports.
 */
export function scriptNumberedAnswers(server: TestServer, usage?: (n: number) => ScriptedUsage) {
  scriptAnswers(server, (w) => {
    let n = 0;
    return () => {
      const content = `${w.name} answer #${++n}.`;
      return usage ? { content, usage: usage(n) } : content;
    };
  });
}

/**
 * `model` streams the first of `chunks`, then holds at the gate `gateName` (made here and
 * returned) until the test releases it or the page goes away: a call cut off mid-stream.
 */
export function streamThenHold(
  server: TestServer,
  model: string,
  chunks: string[],
  gateName: string,
): Gate {
  const gate = server.gate(gateName);
  server.setDefault(model, { chunks, gate: gateName, gateAfter: 1 });
  return gate;
}
