import { describe, expect, it } from "vitest";
import { multipleChoiceScorerV2 } from "./mc-v2.ts";
import { parseScoreInput, scoreCase } from "./score-input.ts";

const signal = new AbortController().signal;

describe("score input", () => {
  it("reads cases, skipping blank lines and ignoring extra fields", () => {
    const r = parseScoreInput('\n{"id":1,"answer":"a","reference":"b","note":"x"}\r\n\n');
    expect(r).toEqual({ ok: true, cases: [{ id: 1, answer: "a", reference: "b" }] });
  });
  it.each([
    ['{"id":1,"answer":"a","reference":"b"}\n{nope', 2, "not valid JSON"],
    ['{"answer":"a","reference":"b"}', 1, "id: "],
    ['{"id":"","answer":"a","reference":"b"}', 1, "id: "],
    ['{"id":1,"answer":"a"}', 1, "reference: "],
    ['{"id":1,"answer":"a","reference":"b","choices":"A"}', 1, "choices: "],
    [
      '{"id":1,"answer":"a","reference":"b"}\n{"id":1,"answer":"c","reference":"d"}',
      2,
      "duplicate id",
    ],
    ["\n\n", 0, "no cases"],
  ])("%j -> line %i: %s", (text, line, message) => {
    const r = parseScoreInput(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.line).toBe(line);
      expect(r.message).toContain(message);
    }
  });
  it("letters the choices into the question it scores against", async () => {
    const c = {
      id: "q",
      answer: "Answer: C",
      reference: "C",
      question: "Pick",
      choices: ["x", "y"],
    };
    // with two options C is no option, so the strict line names none
    expect(await scoreCase(multipleChoiceScorerV2(), c, signal)).toEqual({
      id: "q",
      correct: false,
      extracted: null,
      reason: "no letter found",
      scorer: "mc",
      version: 3,
    });
    const three = { ...c, choices: ["x", "y", "z"] };
    expect((await scoreCase(multipleChoiceScorerV2(), three, signal)).correct).toBe(true);
  });
});
