// The remote "constrain the plan" options over real HTTP: the test server records each request body.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TestServer } from "../../../e2e/server/server.ts";
import { startTestServer } from "../../../e2e/server/server.ts";
import type { PlanGrammarMode } from "../conductor/constrain.ts";
import { buildPlanGrammar } from "../conductor/grammar.ts";
import { DEFAULT_OPENING, foldedOpening } from "../conductor/prompt.ts";
import { createOpenAIBackend } from "../llm/openai.ts";
import type { PlanOutcome } from "./plan.ts";
import { planRound } from "./plan.ts";

const PLAN = `${DEFAULT_OPENING} One step.\nmodel_id = [0]\nsubtasks = ["Answer it."]\naccess_list = [[]]`;
const MESSAGES = [
  { role: "system" as const, content: "You coordinate." },
  { role: "user" as const, content: `Plan it.\n\n${foldedOpening(DEFAULT_OPENING)}` },
];
const GRAMMAR = buildPlanGrammar({ workers: 2, maxSteps: 3, round: 0, opening: DEFAULT_OPENING });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function plan(planGrammar: PlanGrammarMode): Promise<PlanOutcome> {
  const backend = createOpenAIBackend({ baseURL: server.baseURL, model: "conductor" });
  const gen = planRound({
    backend,
    conductor: { temperature: 0.2, maxTokens: 512, planGrammar },
    messages: MESSAGES,
    workerIds: ["alpha", "beta"],
    maxSteps: 3,
    round: 0,
    signal: new AbortController().signal,
    retry: { maxAttempts: 1 },
  });
  for (;;) {
    const next = await gen.next();
    if (next.done) return next.value;
  }
}

const lastBody = () => server.requests.at(-1)?.body as Record<string, unknown>;

describe("constrain the plan on a remote endpoint", () => {
  it.each([
    ["vllm", { structured_outputs: { grammar: GRAMMAR } }],
    ["vllm-guided", { guided_grammar: GRAMMAR }],
    ["sglang", { ebnf: GRAMMAR }],
  ] as const)("%s puts the grammar in its field of the request body", async (mode, fields) => {
    server.script("conductor", PLAN);
    const outcome = await plan(mode);
    expect(outcome.ok).toBe(true);
    const body = lastBody();
    expect(body).toMatchObject(fields);
    // The grammar writes the opening, so the prompt no longer asks for it.
    const messages = body.messages as { content: string }[];
    expect(messages.at(-1)?.content).toBe("Plan it.");
  });

  it("off sends no grammar field and keeps the prompt as it was", async () => {
    server.script("conductor", PLAN);
    await plan("off");
    const body = lastBody();
    for (const field of ["structured_outputs", "guided_grammar", "ebnf", "response_format"]) {
      expect(body).not.toHaveProperty(field);
    }
    expect((body.messages as { content: string }[]).at(-1)?.content).toContain("Begin your reply");
  });

  it("a server that refuses the field: the plan fails with a message that says what to change", async () => {
    server.script("conductor", (body) =>
      "structured_outputs" in body
        ? {
            status: 400,
            errorMessage: "Unrecognized request argument supplied: structured_outputs",
          }
        : PLAN,
    );
    const outcome = await plan("vllm");
    expect(outcome).toMatchObject({ ok: false, code: "grammar_refused" });
    if (outcome.ok) return;
    expect(outcome.message).toContain('"structured_outputs"');
    expect(outcome.message).toContain("constrain the plan");
  });
});
