// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emptyRecord } from "../../engine/run/record.ts";
import type { RoundRecord } from "../../engine/schema/record.ts";
import { useStudio } from "../../state/slices/store.ts";
import { RoundPlans } from "./RoundPlans.tsx";

const initial = useStudio.getState();
beforeEach(() => useStudio.setState(initial, true));
afterEach(cleanup);

function round(index: number, raw: string, patch: Partial<RoundRecord> = {}): RoundRecord {
  return {
    index,
    plan: { messages: [], raw, startedAt: 1, finishedAt: 2, usage: null, cost: null, error: null },
    lists: null,
    steps: [],
    answer: null,
    accepted: false,
    ...patch,
  };
}

describe("RoundPlans", () => {
  it("shows nothing for a single round", () => {
    useStudio.setState({ record: { ...emptyRecord(), rounds: [round(0, "first plan")] } });
    render(<RoundPlans />);
    expect(screen.queryByTestId("round-plans")).toBeNull();
  });

  it("shows each refinement round's verdict and reasoning", () => {
    const lists = {
      model_id: [1, 0],
      subtasks: ["a", "b"],
      access_list: [[], "all" as const],
      workerIds: ["a", "b"],
    };
    useStudio.setState({
      record: {
        ...emptyRecord(),
        rounds: [
          round(0, "first"),
          round(1, "Check again.", { lists }),
          round(2, "Fine as is.", { accepted: true }),
        ],
      },
    });
    render(<RoundPlans />);
    const blocks = screen.getAllByTestId("round-plan");
    expect(blocks.map((b) => b.querySelector("summary")?.textContent)).toEqual([
      "Round 2: new workflow, 2 steps",
      "Round 3: accepted the answer of round 2",
    ]);
    expect(blocks[0]?.textContent).toContain("Check again.");
  });
});
