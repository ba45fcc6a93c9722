// Test support for the `eval` CLI tests: the "What is N plus one?" questions most of them ask,
// models scripted to answer them from N, the config and question files an `eval` run reads, and the
// judge that compares a candidate with its reference. Not a test file itself.
import type { ChatBody, TestServer } from "../../../e2e/server/server.ts";
import type { Harness } from "./cli-harness.ts";
import { threeWorkerConfig } from "./cli-harness.ts";

/** Exact usage per scripted call, so token counts and costs are known. */
export const EVAL_USAGE = { prompt_tokens: 1000, completion_tokens: 1000 };

/** A Conductor plan: Solver B works it out, then the Checker answers. */
export const SOLVER_THEN_CHECKER_PLAN = `One solver, then the checker answers.
model_id = [1, 2]
subtasks = ["Work it out.", "Check it and give the final answer."]
access_list = [[], ["all"]]`;

/** Questions q1, q2, … asking "What is N plus one?" for each number, answered N + 1. */
export function plusOneItems(numbers: readonly number[]) {
  return numbers.map((n, i) => ({
    id: `q${i + 1}`,
    question: `What is ${n} plus one?`,
    answer: String(n + 1),
  }));
}

/** The N of the "What is N plus one?" a request shows (NaN when it shows none). */
export function askedPlusOne(body: ChatBody): number {
  return Number(/What is (\d+) plus one\?/.exec(JSON.stringify(body.messages))?.[1] ?? NaN);
}

type ScriptedModel = "conductor-7b" | "solver-a" | "solver-b" | "checker";

/**
 * Scripts each named model's every reply with `usage`: a string as is, a function from the N the
 * request asks about (and the request itself).
 */
export function scriptPlusOne(
  server: TestServer,
  replies: Partial<Record<ScriptedModel, string | ((n: number, body: ChatBody) => string)>>,
  usage: { prompt_tokens: number; completion_tokens: number } = EVAL_USAGE,
): void {
  for (const [model, reply] of Object.entries(replies)) {
    server.setDefault(model, (body) => ({
      content: typeof reply === "string" ? reply : reply(askedPlusOne(body), body),
      usage,
    }));
  }
}

/** Each call tried once: a failed call is an error at once, not after a back-off. */
const ONE_ATTEMPT = { retry: { maxAttempts: 1 } };

/**
 * Writes the three-worker config (`config` merged in; by default each call tried once) and the
 * questions (a string as is, else one JSON line each) into the harness's directory; returns the
 * files `evalArgs` takes, with `results.jsonl` there as the output.
 */
export async function writeEvalFiles(
  h: Harness,
  questions: string | readonly object[],
  options: { datasetName?: string; config?: Record<string, unknown> } = {},
) {
  const config = await h.file(
    "pool.json",
    threeWorkerConfig(h.server, options.config ?? ONE_ATTEMPT),
  );
  const text =
    typeof questions === "string" ? questions : questions.map((q) => JSON.stringify(q)).join("\n");
  const dataset = await h.file(options.datasetName ?? "questions.jsonl", text);
  return { config, dataset, out: `${h.dir}/results.jsonl` };
}

/** How many chat requests the test server has received. */
export const chatCount = (h: Harness) =>
  h.server.requests.filter((r) => r.path === "/v1/chat/completions").length;

/** A judge's verdict line: CORRECT when the candidate's "Answer: X" is the reference. */
export function judgeByReference(body: ChatBody): string {
  const text = JSON.stringify(body.messages);
  const ref = /<reference>\\n(\d+)/.exec(text)?.[1];
  const cand = /<candidate>\\n([\s\S]*?)\\n<\/candidate>/.exec(text)?.[1] ?? "";
  return `VERDICT: ${ref && cand.includes(`Answer: ${ref}`) ? "CORRECT" : "INCORRECT"}`;
}

/** `eval --config C --preset P [--dataset D] --out O`, then `extra` (the flags under test). */
export function presetArgs(
  files: { config: string; preset: string; dataset?: string; out: string },
  ...extra: string[]
): string[] {
  const dataset = files.dataset === undefined ? [] : ["--dataset", files.dataset];
  return [
    "eval",
    "--config",
    files.config,
    "--preset",
    files.preset,
    ...dataset,
    "--out",
    files.out,
    ...extra,
  ];
}
