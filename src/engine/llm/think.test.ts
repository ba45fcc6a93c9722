import { describe, expect, it } from "vitest";
import type { ContentPiece } from "./think.ts";
import { ThinkSplitter, splitUnopenedThink } from "./think.ts";

/** Feeds `text` cut at the given positions and returns the answer and reasoning it produced. */
function split(text: string, cuts: number[]) {
  const splitter = new ThinkSplitter();
  const pieces: ContentPiece[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    pieces.push(...splitter.push(text.slice(from, cut)));
    from = cut;
  }
  pieces.push(...splitter.end());
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
