import { describe, expect, it } from "vitest";
import { LlmError } from "../llm/types.ts";
import { constrainedPrompt, grammarFields, openingOf, refusedGrammar } from "./constrain.ts";
import { DEFAULT_OPENING, userTurn } from "./prompt.ts";

const system = { role: "system" as const, content: "You coordinate." };

describe("constrainedPrompt", () => {
  it("turns a folded opening into the grammar's prefix and drops the instruction", () => {
    const messages = [system, ...userTurn("Plan it.", DEFAULT_OPENING, false)];
    expect(openingOf(messages)).toEqual({ opening: DEFAULT_OPENING, folded: true });
    expect(constrainedPrompt(messages)).toEqual({
      messages: [system, { role: "user", content: "Plan it." }],
      prefix: DEFAULT_OPENING,
    });
  });

  it("leaves a continued assistant opening and a prompt without one as they are", () => {
    const continued = [system, ...userTurn("Plan it.", DEFAULT_OPENING, true)];
    expect(constrainedPrompt(continued)).toEqual({ messages: continued, prefix: "" });
    const none = [system, ...userTurn("Plan it.", "", false)];
    expect(constrainedPrompt(none)).toEqual({ messages: none, prefix: "" });
    // A question that merely ends like the instruction, without the exact wording, is not one.
    const lookalike = [system, { role: "user" as const, content: 'Say: "hello"' }];
    expect(constrainedPrompt(lookalike).prefix).toBe("");
  });
});

describe("grammar fields and refusals", () => {
  it("puts the grammar where each kind of server reads it", () => {
    expect(grammarFields("off", "g")).toEqual({});
    expect(grammarFields("webllm", "g")).toEqual({ grammar: "g" });
    expect(grammarFields("vllm", "g")).toEqual({
      extraBody: { structured_outputs: { grammar: "g" } },
    });
    expect(grammarFields("vllm-guided", "g")).toEqual({ extraBody: { guided_grammar: "g" } });
    expect(grammarFields("sglang", "g")).toEqual({ extraBody: { ebnf: "g" } });
  });

  it("names a 400 about the field as a refused grammar, and leaves other errors alone", () => {
    const refused = new LlmError("bad_request", "400 Extra inputs are not permitted: ebnf", 400);
    expect(refusedGrammar(refused, "sglang").code).toBe("grammar_refused");
    const other = new LlmError("bad_request", "400 temperature must be at most 2", 400);
    expect(refusedGrammar(other, "sglang")).toBe(other);
    const auth = new LlmError("auth", "401 grammar", 401);
    expect(refusedGrammar(auth, "vllm")).toBe(auth);
    expect(refusedGrammar(refused, "off")).toBe(refused);
  });
});
