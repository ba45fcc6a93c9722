import { describe, expect, it } from "vitest";
import { LlmError } from "../llm/types.ts";
import type { ChatMessage } from "../schema/usage.ts";
import {
  constrainedPrompt,
  grammarFields,
  openingOf,
  refusedGrammar,
  unconstrainedPrompt,
} from "./constrain.ts";
import { DEFAULT_OPENING, foldedOpening, userTurn } from "./prompt.ts";

const system = { role: "system" as const, content: "You coordinate." };

describe("constrainedPrompt", () => {
  it("turns a folded opening into the grammar's prefix and drops the instruction", () => {
    const messages = [system, ...userTurn("Plan it.", DEFAULT_OPENING, false)];
    expect(openingOf(messages)).toEqual({ opening: DEFAULT_OPENING, folded: true });
    expect(constrainedPrompt(messages)).toEqual({
      messages: [system, { role: "user", content: "Plan it." }],
      prefix: DEFAULT_OPENING,
      folded: true,
    });
  });

  it("leaves a continued assistant opening and a prompt without one as they are", () => {
    const continued = [system, ...userTurn("Plan it.", DEFAULT_OPENING, true)];
    expect(constrainedPrompt(continued)).toEqual({
      messages: continued,
      prefix: "",
      folded: false,
    });
    const none = [system, ...userTurn("Plan it.", "", false)];
    expect(constrainedPrompt(none)).toEqual({ messages: none, prefix: "", folded: false });
    // A question that merely ends like the instruction, without the exact wording, is not one.
    const lookalike = [system, { role: "user" as const, content: 'Say: "hello"' }];
    expect(constrainedPrompt(lookalike).prefix).toBe("");
    expect(openingOf(lookalike)).toEqual({ opening: "", folded: false });
    expect(constrainedPrompt([])).toEqual({ messages: [], prefix: "", folded: false });
    expect(openingOf([])).toEqual({ opening: "", folded: false });
    // The instruction with words after it is not the one folded in last.
    const after = [system, { role: "user" as const, content: `Q\n\n${foldedOpening("Go.")} Now.` }];
    expect(openingOf(after)).toEqual({ opening: "", folded: false });
  });

  it("finds the opening a prompt asks for: continued as the assistant's, or folded in", () => {
    const continued = [system, ...userTurn("Plan it.", DEFAULT_OPENING, true)];
    expect(openingOf(continued)).toEqual({ opening: DEFAULT_OPENING, folded: false });
    // A message that is nothing but the instruction still asks for the opening.
    const bare = [{ role: "user" as const, content: `\n\n${foldedOpening("Go.")}` }];
    expect(openingOf(bare)).toEqual({ opening: "Go.", folded: true });
    // Only the user's message carries a folded opening; a system prompt ending so is the system's.
    const asSystem = [{ role: "system" as const, content: `S\n\n${foldedOpening("Go.")}` }];
    expect(openingOf(asSystem)).toEqual({ opening: "", folded: false });
    expect(constrainedPrompt(asSystem).messages).toBe(asSystem);
  });
});

describe("unconstrainedPrompt", () => {
  const plain = (content: string): ChatMessage[] => [system, { role: "user", content }];

  it.each<[string, ChatMessage[]]>([
    ["the default opening", [system, ...userTurn("Plan it.", DEFAULT_OPENING, false)]],
    [
      "a refinement round, the earlier turns untouched",
      [
        system,
        { role: "user", content: "Plan it." },
        { role: "assistant", content: "model_id = [0]" },
        ...userTurn("Refine it.", DEFAULT_OPENING, false),
      ],
    ],
    [
      'an opening with quotes and lines: He said "go".\nThen',
      plain(`Q\n\n${foldedOpening('He said "go".\nThen')}`),
    ],
    // A question that itself ends like the instruction: only the folded one was dropped.
    [
      "a question that ends like the instruction",
      plain(`Q\n\n${foldedOpening("a")}\n\n${foldedOpening("b")}`),
    ],
    ["an empty opening that was folded all the same", plain(`Q\n\n${foldedOpening("")}`)],
  ])("gives back the prompt the grammar changed, for %s", (_name, messages) => {
    const constrained = constrainedPrompt(messages);
    expect(constrained.folded).toBe(true);
    expect(constrained.messages).not.toEqual(messages);
    expect(unconstrainedPrompt(constrained.messages, constrained.prefix)).toEqual(messages);
  });

  it("takes the last instruction as the folded one when the question ends like one too", () => {
    const messages = plain(`Q\n\n${foldedOpening("a")}\n\n${foldedOpening("b")}`);
    expect(constrainedPrompt(messages)).toEqual({
      messages: plain(`Q\n\n${foldedOpening("a")}`),
      prefix: "b",
      folded: true,
    });
    // A bare head with no sentence and closing quote after it is no instruction.
    expect(openingOf(plain(`Q\n\n${foldedOpening("").slice(0, -1)}`)).folded).toBe(false);
  });

  it("leaves messages alone with no opening dropped, or none the user's message could have held", () => {
    const messages = plain("Plan it.");
    expect(unconstrainedPrompt(messages, undefined)).toBe(messages);
    const continued = [system, ...userTurn("Plan it.", DEFAULT_OPENING, true)];
    expect(unconstrainedPrompt(continued, DEFAULT_OPENING)).toBe(continued);
    expect(unconstrainedPrompt([], DEFAULT_OPENING)).toEqual([]);
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
