import { describe, expect, it } from "vitest";
import type { PlannedStep } from "../schema/workflow.ts";
import { formatLists } from "./format.ts";
import { parseConductorOutput } from "./parse.ts";

describe("formatLists", () => {
  it("writes the three lists so that the parser reads back the same steps", () => {
    const steps: PlannedStep[] = [
      { worker: 2, subtask: 'Solve "it" with a[i] = b[j], then\nexplain.', access: [] },
      { worker: 0, subtask: "Check the model's answer.", access: "all" },
      { worker: 1, subtask: "Merge.", access: [0, 1] },
    ];
    const text = formatLists(steps);
    expect(text).toContain('access_list = [[],["all"],[0,1]]');
    expect(parseConductorOutput(text, { workers: 3 })).toMatchObject({ ok: true, steps });
  });
});
