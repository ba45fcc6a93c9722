import { describe, expect, it } from "vitest";
import { createBatcher } from "./batch.ts";

describe("createBatcher", () => {
  it("applies everything pushed before a frame in one call", () => {
    const frames: (() => void)[] = [];
    const applied: number[][] = [];
    const b = createBatcher<number>(
      (items) => applied.push(items),
      (f) => frames.push(f),
    );
    b.push(1);
    b.push(2);
    b.push(3);
    expect(frames).toHaveLength(1);
    expect(applied).toEqual([]);
    frames[0]!();
    expect(applied).toEqual([[1, 2, 3]]);
    b.push(4);
    expect(frames).toHaveLength(2);
    b.flush();
    expect(applied).toEqual([[1, 2, 3], [4]]);
    frames[1]!(); // a stale frame after a manual flush applies nothing twice
    expect(applied).toEqual([[1, 2, 3], [4]]);
  });
});
