import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../schema/usage.ts";
import { DEFAULT_OPENING, foldedOpening } from "./prompt.ts";
import { buildRefinementConversation, buildRefinementMessage } from "./refine.ts";

const completion =
  ' Two models should check.\nmodel_id = [0, 1]\nsubtasks = ["Solve", "Check"]\naccess_list = [[], ["all"]]';

function noConsecutiveAssistants(messages: ChatMessage[]): boolean {
  return messages.every(
    (m, i) => i === 0 || m.role !== "assistant" || messages[i - 1]?.role !== "assistant",
  );
}

describe("buildRefinementMessage", () => {
  it("shows the answer and the round, and offers empty lists or a new workflow", () => {
    const text = buildRefinementMessage("  391  ", 1);
    expect(text).toContain("ANSWER:\n391\nEND OF ANSWER");
    expect(text).toContain("refinement round 1");
    expect(text).toContain("model_id = []\nsubtasks = []\naccess_list = []");
    expect(text).toContain('["all"]');
  });

  it("says so when the answer was empty", () => {
    expect(buildRefinementMessage(" \n", 2)).toContain("(the team returned no answer)");
  });
});

describe("buildRefinementConversation", () => {
  const continued: ChatMessage[] = [
    { role: "system", content: "SYS" },
    { role: "user", content: "PLAN" },
    { role: "assistant", content: DEFAULT_OPENING },
  ];

  it("merges the opening and the completion into one assistant turn, then reopens", () => {
    const messages = buildRefinementConversation(continued, completion, "391", 1, {
      continuesAssistant: true,
    });
    expect(messages).toEqual([
      { role: "system", content: "SYS" },
      { role: "user", content: "PLAN" },
      { role: "assistant", content: DEFAULT_OPENING + completion },
      { role: "user", content: buildRefinementMessage("391", 1) },
      { role: "assistant", content: DEFAULT_OPENING },
    ]);
    expect(noConsecutiveAssistants(messages)).toBe(true);
  });

  it("does not change the previous messages", () => {
    const before = structuredClone(continued);
    buildRefinementConversation(continued, completion, "391", 1, { continuesAssistant: true });
    expect(continued).toEqual(before);
  });

  it("adds a space where the completion does not bring one", () => {
    const messages = buildRefinementConversation(continued, "First, plan.", "391", 1, {
      continuesAssistant: true,
    });
    expect(messages[2]?.content).toBe(`${DEFAULT_OPENING} First, plan.`);
  });

  it("does not repeat an opening the backend echoed", () => {
    const echoed = `${DEFAULT_OPENING} First, plan.`;
    const messages = buildRefinementConversation(continued, echoed, "391", 1, {
      continuesAssistant: true,
    });
    expect(messages[2]?.content).toBe(echoed);
  });

  it("appends the completion and folds the opening when the backend cannot continue", () => {
    const folded: ChatMessage[] = [
      { role: "system", content: "SYS" },
      { role: "user", content: `PLAN\n\n${foldedOpening("Go:")}` },
    ];
    const messages = buildRefinementConversation(folded, completion, "391", 1, {
      continuesAssistant: false,
      opening: "Go:",
    });
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(messages[2]?.content).toBe(completion);
    expect(messages[3]?.content).toBe(
      `${buildRefinementMessage("391", 1)}\n\n${foldedOpening("Go:")}`,
    );
  });

  it("chains a second round without two assistant turns in a row", () => {
    const round1 = buildRefinementConversation(continued, completion, "391", 1, {
      continuesAssistant: true,
    });
    const round2 = buildRefinementConversation(round1, " Accept.\nmodel_id = []", "391", 2, {
      continuesAssistant: true,
    });
    expect(round2.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(round2[4]?.content).toBe(`${DEFAULT_OPENING} Accept.\nmodel_id = []`);
    expect(round2[5]?.content).toContain("refinement round 2");
    expect(noConsecutiveAssistants(round2)).toBe(true);
  });
});
