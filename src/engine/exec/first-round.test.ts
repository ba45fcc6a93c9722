import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { RunEvent } from "../schema/events.ts";
import { ConductorConfigSchema, WorkerSchema } from "../schema/worker.ts";
import { runConductor } from "./simple-runs.ts";

const pool = [WorkerSchema.parse({ id: "a", name: "Alpha", model: "alpha" })];
const conductor = ConductorConfigSchema.parse({ model: "conductor-7b" });

describe("runConductor with a first round the user already has", () => {
  it("runs the given round without planning it, then asks the Conductor to refine", async () => {
    const c = createFakeBackend([
      { text: "Looks right.\nmodel_id = []\nsubtasks = []\naccess_list = []" },
    ]);
    const w = createFakeBackend([{ text: "42" }]);
    const raw = 'model_id = [0]\nsubtasks = ["Multiply."]\naccess_list = [[]]';
    const events: RunEvent[] = [];
    for await (const e of runConductor({
      question: "6 x 7?",
      pool,
      conductor,
      conductorBackend: c,
      backendFor: () => w,
      signal: new AbortController().signal,
      maxRounds: 1,
      firstRound: {
        raw,
        steps: [{ worker: "a", subtask: "Multiply, carefully.", access: [] }],
      },
    }))
      events.push(e);
    expect(events.some((e) => e.type === "run_start")).toBe(false);
    expect(c.calls).toHaveLength(1); // only the refinement round's plan
    const refinement = c.calls[0]!.messages.map((m) => m.content).join("\n");
    expect(refinement).toContain("42");
    // It continues from what the Conductor wrote for the round, not the lists rebuilt from its steps.
    expect(refinement).toContain(raw);
    expect(w.calls[0]?.messages[0]?.content).toContain("Multiply, carefully.");
    expect(events.at(-1)).toMatchObject({
      type: "run_finish",
      status: "done",
      reason: "accepted",
      answer: "42",
    });
  });
});
