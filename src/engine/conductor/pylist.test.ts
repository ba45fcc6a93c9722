import { describe, expect, it } from "vitest";
import { readPyList } from "./pylist.ts";

/** Reads a literal that starts the string, asserting success. */
function read(src: string): unknown {
  const result = readPyList(src, 0);
  if (!result.ok) throw new Error(`expected a list, got: ${result.reason}`);
  return result.value;
}

describe("readPyList", () => {
  it("reads Python literals: quotes, numbers, nesting, trailing commas, comments, tuples", () => {
    expect(read(`[1, -2, 'a', "b", [], [3, "4"], (5, 6),]`)).toEqual([
      1,
      -2,
      "a",
      "b",
      [],
      [3, "4"],
      [5, 6],
    ]);
    expect(read(`[\n  1,  # first\n  2,  # second ]\n]`)).toEqual([1, 2]);
    expect(read(`[True, False, None, all]`)).toEqual([true, false, null, "all"]);
  });

  it("reports where the list ends and ignores what follows", () => {
    const src = `x = [1, "]", 2] and then prose [3]`;
    const result = readPyList(src, src.indexOf("["));
    expect(result).toEqual({ ok: true, value: [1, "]", 2], end: src.indexOf(" and") });
  });

  it("decodes escapes like Python", () => {
    expect(read(String.raw`["a\"b", 'c\'d', "e\\f", "\n\t", "\u00e9\x41", "\d"]`)).toEqual([
      'a"b',
      "c'd",
      "e\\f",
      "\n\t",
      "éA",
      "\\d",
    ]);
    expect(read(`["line \\\ncontinued"]`)).toEqual(["line continued"]);
  });

  it("reads every JSON array the same as JSON.parse (it is the JSON fallback)", () => {
    const json = String.raw`[["all"], [0, 1], "a\/b \ud83d\ude00", 1.5e2, true, false, null, []]`;
    const expected: unknown = JSON.parse(json);
    expect(read(json)).toEqual(expected);
  });

  it("keeps apostrophes in strings and treats smart quotes as delimiters", () => {
    expect(read(`["the model's answer"]`)).toEqual(["the model's answer"]);
    expect(read(`[“the model’s answer”, ‘plain’]`)).toEqual(["the model’s answer", "plain"]);
    // Not valid Python, but a common slip: the lenient pass only closes before `,` or `]`.
    expect(read(`['the model's answer', 'the authors' idea']`)).toEqual([
      "the model's answer",
      "the authors' idea",
    ]);
    expect(read(`['Design a ' 'fast algorithm']`)).toEqual(["Design a fast algorithm"]);
    expect(read(`["""multi\nline's""", '''x''']`)).toEqual(["multi\nline's", "x"]);
  });

  it("flags truncation and keeps the entries completed so far", () => {
    expect(readPyList(`[[], ["all"], [0`, 0)).toMatchObject({
      ok: false,
      truncated: true,
      items: [[], ["all"]],
    });
    // "12" may still become "123": an entry counts only once its separator is seen.
    expect(readPyList(`[5, 12`, 0)).toMatchObject({ ok: false, truncated: true, items: [5] });
    expect(readPyList(`["done", "half writ`, 0)).toMatchObject({
      truncated: true,
      items: ["done"],
    });
  });

  it("rejects what is not a literal, with a reason", () => {
    for (const src of [`[2, 0, ...]`, `[model_two]`, `[1 2]`, `[{"a": 1}]`]) {
      const result = readPyList(src, 0);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.truncated).toBe(false);
        expect(result.reason.length).toBeGreaterThan(0);
      }
    }
  });

  it("stays bounded on adversarial input", () => {
    expect(readPyList("[".repeat(100_000), 0)).toMatchObject({ ok: false });
    expect(readPyList(`["${"\\".repeat(9999)}`, 0)).toMatchObject({ ok: false, truncated: true });
    expect(read(`[${"[".repeat(8)}${"]".repeat(8)}]`)).toHaveLength(1);
  });
});

describe("readPyList strict smart quotes", () => {
  it("closes a smart-quoted string only on a smart quote of its kind, straight quotes inside", () => {
    // The lenient pass cannot rescue this one: `", ` inside the string looks like its end.
    expect(read('[“He read "Dune", twice”, “b”]')).toEqual(['He read "Dune", twice', "b"]);
    expect(read("[‘it’s “fine”, really’]")).toEqual(["it’s “fine”, really"]);
  });
});
