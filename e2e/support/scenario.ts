import type { RecordedRequest, ReplySpec, TestServer } from "../server/server.ts";

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

export const QUESTION = "Is 391 a prime number? Explain briefly.";

/** The three lists of a plan (SPEC 1.2). */
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

/** What a Conductor writes: free-text reasoning, then the three Python-style list assignments. */
export function conductorText(lists: PlanLists): string {
  return [
    "The question is a short arithmetic check, but a single model can slip on factoring, so two",
    "workers attempt it independently and a third compares their answers before replying.",
    "",
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

/** The chat-completion calls the server received for one model (preflights excluded). */
export function callsTo(server: TestServer, model: string): RecordedRequest[] {
  return server.requests.filter(
    (r) =>
      r.method === "POST" &&
      r.path === "/v1/chat/completions" &&
      typeof r.body === "object" &&
      r.body !== null &&
      "model" in r.body &&
      r.body.model === model,
  );
}

/** Scripts the Conductor's plan and one default answer per worker (`Answer from <name>`). */
export function scriptPlanAndAnswers(server: TestServer, lists: PlanLists = ATTEMPTS_THEN_JUDGE) {
  server.script(CONDUCTOR_MODEL, conductorText(lists));
  for (const w of WORKERS) server.setDefault(w.model, `Answer from ${w.name}.`);
}
