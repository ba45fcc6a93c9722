import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../../test-support/engine/llm/fake-backend.ts";
import { LlmError } from "../../llm/types.ts";
import { CONTAINS_CASES } from "../../../test-support/engine/eval/scorers/contains-cases.ts";
import { EXACT_CASES } from "../../../test-support/engine/eval/scorers/exact-cases.ts";
import { VERDICT_CASES } from "../../../test-support/engine/eval/scorers/judge-cases.ts";
import { judgeScorer, parseVerdict } from "./judge.ts";
import { MATH_CASES } from "../../../test-support/engine/eval/scorers/math-cases.ts";
import { mathScorer } from "./math.ts";
import { MC_CASES, MC_QUESTION } from "../../../test-support/engine/eval/scorers/mc-cases.ts";
import { multipleChoiceScorer } from "./mc.ts";
import { REGEX_CASES } from "../../../test-support/engine/eval/scorers/regex-cases.ts";
import { createScorer, defaultScorerId, registerScorer, scorerIds } from "./registry.ts";
import { verdict } from "./types.ts";

const signal = new AbortController().signal;

describe("multiple-choice scorer", () => {
  it.each(MC_CASES)("%j -> strict %s, lenient %s", async (answer, strict, lenient) => {
    const item = { question: MC_QUESTION, expected: "C" };
    const s = await multipleChoiceScorer("strict").score(answer, item, signal);
    const l = await multipleChoiceScorer("lenient").score(answer, item, signal);
    expect(s.extracted).toBe(strict);
    expect(l.extracted).toBe(lenient);
    expect(l.correct).toBe(lenient === "C");
    expect(l.details).toMatchObject({ strict: strict === "C", lenient: lenient === "C" });
  });
  it("leaves an item without a letter unscored", async () => {
    expect(
      (await multipleChoiceScorer().score("Answer: A", { question: "q" }, signal)).correct,
    ).toBeNull();
  });
});

describe("math scorer", () => {
  it.each(MATH_CASES)("%j against %j -> %s", async (answer, expected, correct) => {
    const r = await mathScorer().score(answer, { question: "q", expected }, signal);
    expect(r.correct).toBe(correct);
  });
});

describe("exact, contains and regex scorers", () => {
  const TEXT_CASES = [
    ...EXACT_CASES.map(([a, e, c]) => ["exact", a, e, c, {}] as const),
    ...CONTAINS_CASES.map(([a, e, c]) => ["contains", a, e, c, {}] as const),
    ...REGEX_CASES.map(([a, e, c, o]) => ["regex", a, e, c, o ?? {}] as const),
  ];
  it.each(TEXT_CASES)("%s: %j against %j -> %s (%j)", async (id, answer, expected, correct, o) => {
    const made = createScorer({ id, options: o });
    if (!made.ok) throw new Error(made.message);
    expect((await made.scorer.score(answer, { question: "q", expected }, signal)).correct).toBe(
      correct,
    );
  });
  it("holds at least 30 realistic answers per scorer", () => {
    for (const cases of [EXACT_CASES, CONTAINS_CASES, REGEX_CASES]) {
      expect(cases.length).toBeGreaterThanOrEqual(30);
    }
  });
  it.each(["exact", "contains"])("%s leaves an item without a reference unscored", async (id) => {
    const made = createScorer({ id, options: {} });
    if (!made.ok) throw new Error(made.message);
    expect(made.scorer).toMatchObject({ id, version: 2 });
    for (const expected of [undefined, "  "]) {
      const r = await made.scorer.score("Answer: x", { question: "q", expected }, signal);
      expect(r).toMatchObject({ correct: null, reason: "The item has no reference answer." });
    }
  });
  it("a pattern that does not compile leaves the item unscored", async () => {
    const made = createScorer({ id: "regex", options: { pattern: "(" } });
    expect(made.ok && (await made.scorer.score("x", { question: "q" }, signal)).correct).toBeNull();
  });
});

describe("LLM judge", () => {
  it.each(VERDICT_CASES)("%j -> %s", (text, v) => {
    expect(parseVerdict(text)).toBe(v);
  });
  it("sends the rubric and reference, and a failed or unreadable judge means unscored", async () => {
    const backend = createFakeBackend([
      { text: "Same city.\nVERDICT: CORRECT" },
      { text: "Looks fine to me" },
      { error: new LlmError("server") },
    ]);
    const judge = judgeScorer({ backend, rubric: "Be strict about units." });
    const item = { question: "Capital of Canada?", expected: "Ottawa" };
    expect((await judge.score("Ottawa", item, signal)).correct).toBe(true);
    expect(backend.calls[0]!.messages[0]!.content).toContain("Be strict about units.");
    expect(backend.calls[0]!.messages[0]!.content).toContain("<reference>\nOttawa");
    expect(await judge.score("Ottawa", item, signal)).toMatchObject({ correct: null, score: 0 });
    expect(await judge.score("Ottawa", item, signal)).toMatchObject({ correct: null });
  });
});

describe("registry", () => {
  it("builds scorers by id, refuses unknown ones and accepts new kinds", async () => {
    expect(createScorer({ id: "nope", options: {} }).ok).toBe(false);
    expect(createScorer({ id: "judge", options: {} }).ok).toBe(false);
    registerScorer("code", () => ({
      id: "code",
      version: 1,
      score: () => Promise.resolve(verdict(true, "ok")),
    }));
    expect(scorerIds()).toContain("code");
    const made = createScorer({ id: "code", options: {} });
    expect(
      made.ok && (await made.scorer.score("", { question: "q", tests: [] }, signal)).correct,
    ).toBe(true);
  });
  it("picks a default scorer from the items", () => {
    expect(defaultScorerId([{ choices: ["a", "b"] }])).toBe("mc");
    expect(defaultScorerId([{ expected: "1,234" }, { kind: "math" }])).toBe("math");
    expect(defaultScorerId([{ expected: "Ottawa" }])).toBe("contains");
  });
});
