import { describe, it } from "vitest";
import { buildConductorMessages } from "../../engine/conductor/prompt.ts";
import type { Pool } from "../../engine/schema/worker.ts";
import { refusedGrammar } from "../../engine/conductor/constrain.ts";
import { CONDUCTOR_AUTH } from "../../engine/exec/plan.ts";
import { LlmError } from "../../engine/llm/types.ts";
import { forCommandLine, templateWithContext } from "./engine.ts";

const pool: Pool = [
  {
    id: "w0",
    name: "Solver",
    kind: "openai",
    baseURL: "http://127.0.0.1:1/v1",
    model: "solver",
    temperature: 0.2,
    maxTokens: 256,
    prefill: false,
  },
];

describe("templateWithContext", () => {
  it("is the default template when there is no context", ({ expect }) => {
    expect(templateWithContext([])).toBeUndefined();
  });

  it("shows earlier messages before the question, never filling placeholders inside them", ({
    expect,
  }) => {
    const template = templateWithContext([
      { role: "system", content: "Answer with a letter." },
      { role: "user", content: "Fill in {{workers}} and {{ question }}." },
    ]);
    const [, user] = buildConductorMessages({
      question: "Which letter?",
      pool,
      maxSteps: 5,
      namedWorkers: false,
      continuesAssistant: false,
      template,
    });
    const text = user?.content ?? "";
    const context = text.indexOf("CONVERSATION SO FAR");
    const question = text.indexOf("USER QUESTION:\nWhich letter?\nEND OF USER QUESTION");
    expect(context).toBeGreaterThan(0);
    expect(question).toBeGreaterThan(context);
    expect(text).toContain(
      "System: Answer with a letter.\n\nUser: Fill in { {workers} } and { { question } }.",
    );
    expect(text.match(/Model id 0/g)).toHaveLength(1);
  });
});

describe("forCommandLine", () => {
  it("turns every studio hint the engine writes into the config's field", ({ expect }) => {
    const refused = new LlmError("bad_request", "unknown field structured_outputs", 400);
    const samples = [CONDUCTOR_AUTH, refusedGrammar(refused, "vllm").message];
    for (const text of samples) expect(forCommandLine(text)).not.toContain("Settings");
    expect(forCommandLine(samples[0]!)).toContain('"conductor.apiKeyEnv"');
    expect(forCommandLine(samples[1]!)).toContain('"conductor.planGrammar"');
  });
});
