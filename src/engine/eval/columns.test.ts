import { describe, expect, it } from "vitest";
import { DEFAULT_COLUMNS } from "./dataset/item-schema.ts";
import { columnsNote, columnsOf, columnsText, guessColumns } from "./columns.ts";

describe("guessColumns", () => {
  it("maps the default names to themselves, reading only the fields the file has", () => {
    expect(guessColumns(["id", "question", "answer"])).toEqual({
      question: "question",
      answer: "answer",
      choices: undefined,
      id: "id",
      kind: undefined,
      tests: undefined,
      category: undefined,
    });
  });

  it("finds other names, case ignored, and keeps the file's spelling", () => {
    expect(guessColumns(["Problem", "Solution", "Subject", "UID", "options", "Type"])).toEqual({
      question: "Problem",
      answer: "Solution",
      choices: "options",
      id: "UID",
      kind: "Type",
      tests: undefined,
      category: "Subject",
    });
  });

  it("finds code tests under either name", () => {
    expect(guessColumns(["prompt", "Test_Cases"]).tests).toBe("Test_Cases");
  });

  it("prefers the first name of a field's list, wherever its column is", () => {
    // "prompt" comes first in the file; "question" is still the question.
    const m = guessColumns(["prompt", "label", "question", "answer"]);
    expect(m.question).toBe("question");
    expect(m.answer).toBe("answer");
  });

  it("takes the first column as the question when no column is named like one", () => {
    expect(guessColumns(["text", "gold"])).toMatchObject({ question: "text", answer: "gold" });
    // Never the id (or any column another field reads), even when it comes first.
    expect(guessColumns(["id", "gold", "body"])).toMatchObject({ id: "id", question: "body" });
    expect(guessColumns([]).question).toBe(DEFAULT_COLUMNS.question);
  });

  it("reads a column whose name only contains a field's name as nothing", () => {
    expect(guessColumns(["question", "answer_key"]).answer).toBeUndefined();
  });
});

describe("columnsOf", () => {
  it("puts --columns over the guess, and refuses a bad list", () => {
    const m = columnsOf(["problem", "solution", "ref"], "answer=ref");
    expect(m).toMatchObject({ ok: true, mapping: { question: "problem", answer: "ref" } });
    expect(columnsOf(["q"], "colour=q").ok).toBe(false);
  });

  it("writes the fields it reads, in the schema's order", () => {
    expect(columnsText(guessColumns(["Answer", "problem"]))).toBe(
      "question=problem, answer=Answer",
    );
  });
});

describe("columnsNote", () => {
  it("says the mapping when a field comes from a column named otherwise, and nothing when none does", () => {
    expect(columnsNote(guessColumns(["problem", "solution", "id"]))).toBe(
      "Columns: question=problem, answer=solution, id=id (--columns overrides).",
    );
    expect(columnsNote(guessColumns(["question", "answer"]))).toBeNull();
  });
});
