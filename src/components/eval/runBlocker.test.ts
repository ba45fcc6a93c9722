import { describe, expect, it } from "vitest";
import { runBlocker } from "./runBlocker.ts";

describe("runBlocker", () => {
  it("names the first missing step, in the order the page asks for them", () => {
    expect(runBlocker(false, 0, 0)?.text).toBe("Load a question set first.");
    expect(runBlocker(true, 0, 0)).toEqual({
      text: "Add workers in Settings first.",
      settings: true,
    });
    expect(runBlocker(true, 2, 0)).toEqual({ text: "Pick at least one strategy." });
  });

  it("is null when everything is in place", () => {
    expect(runBlocker(true, 1, 1)).toBeNull();
  });
});
