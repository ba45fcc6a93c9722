// Which failed Conductor calls under a plan grammar are answered by planning unconstrained: only a
// grammar the backend compiles itself (the in-browser model) that it could not compile.
import { describe, expect, it } from "vitest";
import type { PlanGrammarMode } from "../conductor/constrain.ts";
import { DEFAULT_OPENING, foldedOpening } from "../conductor/prompt.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import type { ChatRequest } from "../llm/types.ts";
import { LlmError } from "../llm/types.ts";
import { planRound } from "./plan.ts";
import { grammarProblem } from "./plan-grammar.ts";
import { drain } from "../../test-support/engine/exec/collect-events.ts";

const PLAN = `${DEFAULT_OPENING} One step.\nmodel_id = [0]\nsubtasks = ["Answer it."]\naccess_list = [[]]`;
const MESSAGES = [
  { role: "system" as const, content: "You coordinate." },
  { role: "user" as const, content: `Plan it.\n\n${foldedOpening(DEFAULT_OPENING)}` },
];
const compiled: ChatRequest = { messages: MESSAGES, temperature: 0, maxTokens: 64, grammar: "g" };
const remote: ChatRequest = { ...compiled, grammar: undefined, extraBody: { ebnf: "g" } };
const failed = new LlmError("grammar_failed", "Invalid grammar: rule plan_1 is undefined");

describe("grammarProblem", () => {
  it("gives the backend's message when the grammar it compiles did not compile", () => {
    expect(grammarProblem(failed, compiled)).toBe(failed.message);
  });

  it.each<[string, unknown, ChatRequest]>([
    ["a request that carried no grammar of its own", failed, remote],
    ["another failure of the call", new LlmError("network", "offline"), compiled],
    ["a thrown value that only looks like the error", { code: "grammar_failed" }, compiled],
  ])("is undefined for %s", (_name, e, request) => {
    expect(grammarProblem(e, request)).toBeUndefined();
  });
});

async function plan(mode: PlanGrammarMode, first: FakeReply) {
  const backend = createFakeBackend([first, { text: PLAN }]);
  const events = await drain(
    (async function* () {
      return yield* planRound({
        backend,
        conductor: { temperature: 0, maxTokens: 64, planGrammar: mode },
        messages: MESSAGES,
        workerIds: ["alpha"],
        maxSteps: 2,
        round: 0,
        signal: new AbortController().signal,
        retry: { maxAttempts: 1 },
      });
    })(),
  );
  const finish = events.findLast((e) => e.type === "plan_finish");
  return { backend, finish: finish?.type === "plan_finish" ? finish : undefined };
}

describe("a plan whose grammar failed", () => {
  it("is written unconstrained by the in-browser model, with a notice saying why", async () => {
    const { backend, finish } = await plan("webllm", { error: failed });
    expect(backend.calls).toHaveLength(2);
    expect(backend.calls[0]?.grammar).toBeDefined();
    // The second request has no grammar, and asks for the opening again in the prompt.
    expect(backend.calls[1]?.grammar).toBeUndefined();
    expect(backend.calls[1]?.messages).toEqual(MESSAGES);
    expect(finish).toMatchObject({ raw: PLAN, steps: [{ worker: "alpha" }] });
    expect(finish?.error).toBeUndefined();
    expect(finish?.notice).toContain(failed.message);
  });

  it.each<[string, PlanGrammarMode, LlmError]>([
    ["a remote server (its grammar field is the server's)", "sglang", failed],
    ["another error under the in-browser grammar", "webllm", new LlmError("network", "offline")],
  ])("fails as it came for %s, asked once", async (_name, mode, error) => {
    const { backend, finish } = await plan(mode, { error });
    expect(backend.calls).toHaveLength(1);
    expect(finish?.error).toMatchObject({ code: error.code });
  });
});
