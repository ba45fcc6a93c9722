import { describe, expect, it } from "vitest";
import { anchorRoute, bezierPoints, roundedPath, segmentHitsRect, simplify } from "./geometry.ts";

const BOX = { x: 0, y: 0, width: 100, height: 50 };

describe("segmentHitsRect", () => {
  it.each([
    ["through the middle", { x: -10, y: 25 }, { x: 110, y: 25 }, true],
    ["diagonally across a corner", { x: -10, y: 10 }, { x: 10, y: -10 }, false],
    ["diagonally into the box", { x: -10, y: 30 }, { x: 30, y: -10 }, true],
    ["along the top side", { x: -10, y: 0 }, { x: 110, y: 0 }, false],
    ["ending on the left side", { x: -50, y: 25 }, { x: 0, y: 25 }, false],
    ["wholly inside", { x: 10, y: 10 }, { x: 20, y: 20 }, true],
    ["beside it", { x: 101, y: -10 }, { x: 101, y: 60 }, false],
  ])("%s", (_, a, b, hits) => expect(segmentHitsRect(a, b, BOX)).toBe(hits));
});

describe("bezierPoints", () => {
  it("starts and ends on the handles and bends like React Flow's default edge", () => {
    const points = bezierPoints({ x: 0, y: 0 }, { x: 200, y: 100 }, 4);
    expect(points[0]).toEqual({ x: 0, y: 0 });
    expect(points.at(-1)).toEqual({ x: 200, y: 100 });
    // Symmetric about its middle, as React Flow's curve between facing handles is.
    expect(points[2]).toEqual({ x: 100, y: 50 });
  });
});

describe("roundedPath and anchorRoute", () => {
  const route = [
    { x: 0, y: 0 },
    { x: 50, y: 0 },
    { x: 50, y: -40 },
    { x: 200, y: -40 },
    { x: 200, y: 0 },
    { x: 220, y: 0 },
  ];

  it("rounds each corner with a quadratic curve", () => {
    const d = roundedPath(route, 10);
    expect(d.startsWith("M 0,0 L 40,0 Q 50,0 50,-10")).toBe(true);
    expect(d.match(/Q/g)).toHaveLength(4);
    expect(d.endsWith("L 220,0")).toBe(true);
  });

  it("moves the ends onto the measured handles, keeping the runs straight", () => {
    const moved = anchorRoute(route, { x: 2, y: 3 }, { x: 219, y: -2 });
    expect(moved[0]).toEqual({ x: 2, y: 3 });
    expect(moved[1]).toEqual({ x: 50, y: 3 });
    expect(moved.at(-2)).toEqual({ x: 200, y: -2 });
    expect(moved.at(-1)).toEqual({ x: 219, y: -2 });
  });

  it("drops repeated points and the middles of straight runs", () => {
    expect(
      simplify([
        { x: 0, y: 0 },
        { x: 0, y: 0 },
        { x: 5, y: 0 },
        { x: 9, y: 0 },
        { x: 9, y: 4 },
      ]),
    ).toEqual([
      { x: 0, y: 0 },
      { x: 9, y: 0 },
      { x: 9, y: 4 },
    ]);
  });
});
