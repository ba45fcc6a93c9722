import { describe, expect, it } from "vitest";
import { makeDoc } from "../../test-support/engine/graph/graph-docs.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { formerWorkers, nodeData } from "./flow.ts";

const worker = (id: string, name: string): Worker => ({
  id,
  name,
  kind: "openai",
  baseURL: "https://x.example/v1",
  model: "m",
  temperature: 0.2,
  maxTokens: 16,
  prefill: false,
});

describe("steps on workers that left the pool", () => {
  const doc = makeDoc([[], [], []]); // steps on w0, w1, w2
  const pool = [worker("w0", "Kept")];

  it("name the worker as the latest pool before the edits knew it, then as the open run did", () => {
    const undo = [{ pool: [worker("w1", "Old name")] }, { pool: [worker("w1", "Newer name")] }];
    const former = formerWorkers(undo, [worker("w1", "Run's name"), worker("w2", "Run's")]);
    const data = [0, 1, 2].map((i) => nodeData(doc, i, pool, undefined, former));
    expect(data.map((d) => d.workerName)).toEqual([
      "Kept",
      "“Newer name” (not in pool)",
      "“Run's” (not in pool)",
    ]);
    expect(data.map((d) => d.workerMissing ?? false)).toEqual([false, true, true]);
  });

  it("fall back to the id when no earlier pool or run knew the worker", () => {
    expect(nodeData(doc, 2, pool, undefined).workerName).toBe("“w2” (not in pool)");
  });

  it("in a shipped example, name the recorded worker without flagging it missing", () => {
    const former = [worker("w1", "Recorded")];
    const data = nodeData(doc, 1, pool, undefined, former, true);
    expect(data.workerName).toBe("Recorded (the example's worker)");
    expect(data.workerMissing).toBeUndefined();
    // A worker nobody recorded is still missing, example or not.
    expect(nodeData(doc, 2, pool, undefined, former, true).workerMissing).toBe(true);
  });
});
