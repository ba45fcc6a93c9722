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

describe("readPyList, case by case", () => {
  it.each<[string, unknown[], number]>([
    [`[+3, 1.5e2, -0.5, 2E-1]`, [3, 150, -0.5, 0.2], 23],
    [`[1e5]`, [100000], 5],
    [`[TRUE, NONE, Null, ALL]`, [true, null, null, "all"], 23],
    ["[`1`, `2`]", [1, 2], 10],
    [`['a' # c\n 'b']`, ["ab"], 14],
    [`['a' "b"]`, ["ab"], 9],
    [`['a'\n'b']`, ["ab"], 9],
    [`["x" 'y' , 2]`, ["xy", 2], 13],
    [`['''a''' 'b']`, ["ab"], 13],
    [String.raw`["""a\"""b"""]`, ['a"""b'], 14],
    [`["a"\n]`, ["a"], 6],
    [`[ ]`, [], 3],
    [`[1] x`, [1], 3],
    [`[(1, 2), (3,)]`, [[1, 2], [3]], 14],
    [`[‘a’]`, ["a"], 5],
    // a smart opening quote closed by a straight one: only the lenient pass reads it
    [`[“a"]`, ["a"], 5],
    // a newline inside a string: strict refuses it, the lenient pass reads up to the quote
    [`["a\n", "b"]`, ["a\n", "b"], 11],
    [String.raw`["\0\/\b\f\r"]`, ["\0/\b\f\r"], 14],
    [String.raw`["\“\”\‘\’"]`, ["“”‘’"], 12],
    [String.raw`["\U0010FFFF"]`, ["\u{10FFFF}"], 14],
    [String.raw`["\U00110000"]`, ["\uFFFD"], 14],
    [String.raw`["a\qb"]`, ["a\\qb"], 8],
    [`["é"]`, ["é"], 5],
  ])("%s reads as %j, ending at %i", (src, value, end) => {
    expect(readPyList(src, 0)).toEqual({ ok: true, value, end });
  });

  it.each<[string, string, boolean, unknown[]]>([
    [`[2, 0, ...]`, "unexpected '.' at offset 7", false, [2, 0]],
    [`[model_two]`, "unexpected word 'model_two'", false, []],
    [`[1 2]`, "expected ',' or ']' but found '2' at offset 3", false, []],
    [`[1.]`, "expected ',' or ']' but found '.' at offset 2", false, []],
    [`[0x10]`, "expected ',' or ']' but found 'x' at offset 2", false, []],
    [`[{"a": 1}]`, "unexpected '{' at offset 1", false, []],
    [`[,]`, "unexpected ',' at offset 1", false, []],
    [`[-]`, "unexpected '-' at offset 1", false, []],
    [`[1`, "the list has no closing ']'", true, []],
    [`(1`, "the list has no closing ')'", true, []],
    [`[1 `, "the list has no closing ']'", true, []],
    [`[1, 2, x`, "unexpected word 'x'", true, [1, 2]],
    [`[1, [2, x]]`, "unexpected word 'x'", false, [1]],
    [`["a`, "a string is not closed", true, []],
    [`["a\\`, "a string is not closed", true, []],
    [`[“unclosed`, "a string is not closed", true, []],
    // strict stops at "s" (not truncated); the lenient pass runs off the end: truncation wins
    [`['it's`, "a string is not closed", true, []],
    ["[".repeat(10) + "]".repeat(10), "the lists are nested too deeply", false, []],
    [String.raw`["\x4"]`, "a bad \\x escape near offset 6", false, []],
    [String.raw`["\xZZ", 1]`, "a bad \\x escape near offset 6", false, []],
    [String.raw`["\u12"]`, "a bad \\u escape near offset 8", true, []],
  ])("%s fails: %s", (src, reason, truncated, items) => {
    expect(readPyList(src, 0)).toEqual({ ok: false, reason, truncated, items });
  });

  it("reads from the given offset, with the end measured in the whole text", () => {
    expect(readPyList("xx[1]", 2)).toEqual({ ok: true, value: [1], end: 5 });
  });

  it("refuses a string cut by a newline in strict reading when the lenient one fails too", () => {
    const r = readPyList(`["a\nb", x]`, 0);
    expect(r).toMatchObject({ ok: false, truncated: false });
    expect(!r.ok && r.reason).toBe("a string is not closed before the end of line 1");
  });
});
