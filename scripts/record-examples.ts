/**
 * Records the studio's two example runs (public/examples/*.json, opened from the empty canvas) by
 * running the engine's runner against the local test server with scripted Conductor plans and
 * worker answers:
 *   npx tsx scripts/record-examples.ts
 * The model calls are real HTTP; the clock is a scripted one and the base URLs are written as the
 * test server's default address, so recording again gives the same bytes.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { ChatBody, TestServer } from "../e2e/server/server.ts";
import { startTestServer } from "../e2e/server/server.ts";
import { runConductor } from "../src/engine/exec/simple-runs.ts";
import { createOpenAIBackend } from "../src/engine/llm/openai.ts";
import { exportRun } from "../src/engine/run/export.ts";
import { applyEvent, emptyRecord } from "../src/engine/run/record.ts";
import type { RunRecord } from "../src/engine/schema/record.ts";
import type { Pool } from "../src/engine/schema/worker.ts";
import { ConductorConfigSchema, WorkerSchema } from "../src/engine/schema/worker.ts";

const OUT = fileURLToPath(new URL("../public/examples/", import.meta.url));
/** What the files name as the endpoint: `tsx e2e/server/main.ts`'s default port, not this run's. */
const SHOWN_BASE_URL = "http://localhost:8787/v1";
const EXPORTED_AT = "2026-12-01T12:00:00.000Z";

/**
 * A worker's own subtask: the last "Your assigned subtask:" of its last user message (a nested
 * step's question quotes its parent step's subtask before it).
 */
function subtaskOf(body: ChatBody): string {
  const m = body.messages.filter((x) => x.role === "user").at(-1);
  const text = typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");
  return text.slice(text.lastIndexOf("Your assigned subtask:"));
}

/** A worker that answers by which subtask it was given (steps may run in parallel). */
function answers(server: TestServer, model: string, by: [string, string][]): void {
  server.setDefault(model, (body) => {
    const text = subtaskOf(body);
    const hit = by.find(([key]) => text.includes(key));
    const content = hit?.[1] ?? "I could not tell which subtask this is.";
    return {
      content,
      usage: {
        prompt_tokens: Math.round(JSON.stringify(body.messages).length / 4),
        completion_tokens: 60,
      },
    };
  });
}

const worker = (server: TestServer, id: string, name: string, model: string, note: string) =>
  WorkerSchema.parse({
    id,
    name,
    model,
    note,
    baseURL: server.baseURL,
    price: { input: 0.5, output: 1.5 },
  });

/** Runs one question through the runner and folds its events into a record. */
async function record(
  server: TestServer,
  o: { id: string; question: string; pool: Pool; maxRounds: number },
): Promise<RunRecord> {
  const conductor = ConductorConfigSchema.parse({
    model: "conductor-7b",
    baseURL: server.baseURL,
    price: { input: 0.1, output: 0.4 },
  });
  const backend = (model: string) => createOpenAIBackend({ baseURL: server.baseURL, model });
  const backends = new Map(o.pool.map((w) => [w.id, backend(w.model)]));
  const conductorBackend = backend(conductor.model);
  let t = Date.parse(EXPORTED_AT) - 60_000;
  let rec = emptyRecord(o.id);
  for await (const event of runConductor({
    question: o.question,
    pool: o.pool,
    conductor,
    conductorBackend,
    backendFor: (w) => backends.get(w.id) ?? conductorBackend,
    signal: new AbortController().signal,
    runId: o.id,
    maxSteps: 5,
    maxRounds: o.maxRounds,
    maxDepth: 1,
    now: () => (t += 173),
  }))
    rec = applyEvent(rec, event);
  if (rec.status !== "done") throw new Error(`${o.id} ended ${rec.status}: ${rec.endReason}`);
  const shown = <T extends { baseURL: string }>(x: T): T =>
    x.baseURL ? { ...x, baseURL: SHOWN_BASE_URL } : x;
  return { ...rec, pool: rec.pool.map(shown), conductor: rec.conductor && shown(rec.conductor) };
}

const THREE_STEP_PLAN = `Two independent attempts catch an off-by-one slip; a checker compares them.
model_id = [0, 1, 2]
subtasks = ["Solve it with the formula n(n+1)/2 and state the final number.", "Solve it by pairing terms from both ends and state the final number.", "Compare both earlier answers, check each for mistakes, and give the single correct final answer."]
access_list = [[], [], ["all"]]`;

async function threeStep(server: TestServer): Promise<RunRecord> {
  server.reset();
  server.script("conductor-7b", {
    content: THREE_STEP_PLAN,
    usage: { prompt_tokens: 900, completion_tokens: 150 },
  });
  answers(server, "solver-a", [["formula", "Using n(n+1)/2 with n = 100: 100 × 101 / 2 = 5050."]]);
  answers(server, "solver-b", [
    ["pairing", "Pairing 1+100, 2+99, …, 50+51 gives 50 pairs of 101, so 5050."],
  ]);
  answers(server, "checker", [
    ["Compare", "Both attempts are correct and agree. The sum is **5050**."],
  ]);
  return record(server, {
    id: "example-three-step",
    question: "Example: What is the sum of the first 100 positive integers?",
    pool: [
      worker(server, "solver-a", "Solver A", "solver-a", "strong at maths"),
      worker(server, "solver-b", "Solver B", "solver-b", "cheap and quick"),
      worker(server, "checker", "Checker", "checker", "careful reviewer"),
    ],
    maxRounds: 0,
  });
}

const NESTED_PLAN = `A draft first; then a nested team (the Conductor itself) reviews it.
model_id = [0, 2]
subtasks = ["Write a Python function is_palindrome(s) that ignores case and non-letters.", "Review the earlier function: plan a test and a fix, and give the final function."]
access_list = [[], ["all"]]`;
const INNER_PLAN = `Test first, then fix what the test finds.
model_id = [1, 0]
subtasks = ["List five test cases for is_palindrome, with the expected result of each.", "Apply the test cases to the function and give a corrected final version."]
access_list = [[], ["all"]]`;
const REFINE_PLAN = `The function looks right, but one more check on unicode input is cheap.
model_id = [1]
subtasks = ["Check the previous round's final function on accented and empty input and state the final function."]
access_list = [["all"]]`;
const FINAL_FN =
  "```python\ndef is_palindrome(s: str) -> bool:\n    letters = [c.lower() for c in s if c.isalpha()]\n    return letters == letters[::-1]\n```";

async function nested(server: TestServer): Promise<RunRecord> {
  server.reset();
  // In order: the plan, the nested Conductor's plan (during round 1), the refinement round's plan.
  const usage = { prompt_tokens: 1100, completion_tokens: 160 };
  for (const content of [NESTED_PLAN, INNER_PLAN, REFINE_PLAN])
    server.script("conductor-7b", { content, usage });
  answers(server, "coder", [
    ["Write a Python", "```python\ndef is_palindrome(s):\n    return s == s[::-1]\n```"],
    ["Apply the test", `The draft fails "A man, a plan" (case and spaces). Fixed:\n\n${FINAL_FN}`],
  ]);
  answers(server, "tester", [
    [
      "five test cases",
      '"racecar" → True; "A man, a plan, a canal: Panama" → True; "ab" → False; "" → True; "Noon!" → True.',
    ],
    [
      "accented",
      `Empty input gives True; "Été" compares "été" to "été" reversed, True. Final:\n\n${FINAL_FN}`,
    ],
  ]);
  return record(server, {
    id: "example-nested-two-rounds",
    question: "Example: Write a Python function that checks whether a string is a palindrome.",
    pool: [
      worker(server, "coder", "Coder", "coder", "writes code"),
      worker(server, "tester", "Tester", "tester", "writes and runs tests"),
      WorkerSchema.parse({ id: "self", name: "The Conductor itself", kind: "conductor" }),
    ],
    maxRounds: 1,
  });
}

const server = await startTestServer();
try {
  await mkdir(OUT, { recursive: true });
  for (const [name, make] of [
    ["three-step.json", threeStep],
    ["nested-two-rounds.json", nested],
  ] as const) {
    await writeFile(`${OUT}${name}`, exportRun(await make(server), EXPORTED_AT));
    console.log(`wrote public/examples/${name}`);
  }
} finally {
  await server.close();
}
