import { describe, expect, it } from "vitest";
import type { ContentPiece, UnopenedPiece } from "./think.ts";
import { ThinkSplitter, UnopenedThink, splitUnopenedThink } from "./think.ts";

/** Feeds `text` to `parser` cut at the given positions, then ends it; every piece it gave, in order. */
function feed<P>(
  parser: { push(text: string): P[]; end(): P[] },
  text: string,
  cuts: number[],
): P[] {
  const pieces: P[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    pieces.push(...parser.push(text.slice(from, cut)));
    from = cut;
  }
  pieces.push(...parser.end());
  return pieces;
}

/** Feeds `text` cut at the given positions and returns the answer and reasoning it produced. */
function split(text: string, cuts: number[]) {
  const pieces: ContentPiece[] = feed(new ThinkSplitter(), text, cuts);
  const of = (type: string) =>
    pieces
      .filter((p) => p.type === type)
      .map((p) => p.text)
      .join("");
  return { answer: of("delta"), reasoning: of("reasoning") };
}

describe("ThinkSplitter", () => {
  const full = "<think>\nTry 17: 17 × 23 = 391.\n</think>\n\n391 is not prime.";
  it("splits a leading block wherever the chunks are cut, tags included", () => {
    for (let a = 0; a <= full.length; a++) {
      for (const b of [a + 1, a + 3, a + 9]) {
        const got = split(full, b <= full.length ? [a, b] : [a]);
        expect(got, `cut at ${a}, ${b}`).toEqual({
          answer: "391 is not prime.",
          reasoning: "Try 17: 17 × 23 = 391.\n",
        });
      }
    }
  });

  it("leaves content without a leading block alone, a later <think> included", () => {
    const text = "Answer: use <think> tags like this </think>.";
    expect(split(text, [8, 13])).toEqual({ answer: text, reasoning: "" });
  });

  it("keeps leading whitespace before a block out of both", () => {
    expect(split("  \n<think>x</think>y", [1, 4])).toEqual({ answer: "y", reasoning: "x" });
  });

  it("treats an unclosed block (cut off by the token limit) as reasoning only", () => {
    expect(split("<think>still going </th", [9])).toEqual({
      answer: "",
      reasoning: "still going </th",
    });
  });

  it("passes a short answer that only looks like the start of a tag", () => {
    expect(split("<th", [])).toEqual({ answer: "<th", reasoning: "" });
  });
});

describe("splitUnopenedThink", () => {
  it("splits an answer whose block was opened by the prompt", () => {
    expect(splitUnopenedThink("Okay, try 17.\n</think>\n\nNot prime.")).toEqual({
      reasoning: "Okay, try 17.\n",
      text: "Not prime.",
    });
  });

  it("leaves an answer without a closing tag, or with a real block, alone", () => {
    expect(splitUnopenedThink("Not prime.")).toBeNull();
    expect(splitUnopenedThink("Write <think>x</think> tags.")).toBeNull();
  });
});

/** Feeds `text` to an `UnopenedThink` cut at `cuts`; the answer as it stands after every piece. */
function watch(text: string, cuts: number[]) {
  const pieces: UnopenedPiece[] = feed(new UnopenedThink(), text, cuts);
  let answer = "";
  let reasoning = "";
  const shown: string[] = [];
  for (const p of pieces) {
    if (p.type === "delta") answer += p.text;
    else {
      answer = "";
      reasoning += p.text;
    }
    shown.push(answer);
  }
  return { answer, reasoning, shown, pieces };
}

describe("UnopenedThink", () => {
  const full = "Okay, try 17: 17 × 23 = 391.\n</think>\n\n391 is not prime.";
  it("moves what came before a bare </think> to reasoning wherever the chunks are cut", () => {
    for (let a = 0; a <= full.length; a++) {
      for (const b of [a + 1, a + 4, a + 11]) {
        const got = watch(full, b <= full.length ? [a, b] : [a]);
        // The same split as the finished answer's.
        const whole = splitUnopenedThink(full)!;
        expect(got, `cut at ${a}, ${b}`).toMatchObject({
          answer: whole.text,
          reasoning: whole.reasoning,
        });
        expect(got.answer).toBe("391 is not prime.");
        // The tag never shows, and once the answer after it shows, the reasoning is gone.
        for (const text of got.shown) {
          expect(text).not.toContain("</");
          if (text.includes("391 is")) expect(text).not.toContain("Okay");
        }
        expect(got.pieces.filter((p) => p.type === "reclassify")).toHaveLength(1);
      }
    }
  });

  it("passes an answer through when a <think> comes before any </think>", () => {
    const text = "Write <think>x</think> tags.";
    for (let a = 0; a <= text.length; a++) {
      expect(watch(text, [a])).toMatchObject({ answer: text, reasoning: "" });
    }
  });

  it("holds back only what could start the tag, and lets it go when the stream ends", () => {
    const first = new UnopenedThink();
    expect(first.push("a </th")).toEqual([{ type: "delta", text: "a " }]);
    expect(first.push("e end")).toEqual([{ type: "delta", text: "</the end" }]);
    const last = new UnopenedThink();
    expect(last.push("x <")).toEqual([{ type: "delta", text: "x " }]);
    expect(last.end()).toEqual([{ type: "delta", text: "<" }]);
  });

  it("says nothing to move when the stream opens with the bare tag", () => {
    expect(watch("</think>\n\nJust the answer.", [3]).pieces).toEqual([
      { type: "delta", text: "Just the answer." },
    ]);
  });
});
