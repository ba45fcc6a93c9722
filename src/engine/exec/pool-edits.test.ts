// Editing the pool (reordering it, adding a worker in front, removing one) never rewires a
// workflow: a step names its worker by id, so it keeps calling the same model; only the agent
// numbers in the messages, the Conductor's numbering, follow the pool's new order.
import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { RunEvent } from "../schema/events.ts";
import type { ChatMessage } from "../schema/usage.ts";
import type { Pool, Worker } from "../schema/worker.ts";
import { WorkerSchema } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import type { WorkflowOutcome } from "./execute.ts";
import { executeWorkflow } from "./execute.ts";
import type { PriorStep } from "./messages.ts";
import { buildWorkerMessages } from "./messages.ts";
import { subtaskOf } from "../../test-support/engine/exec/subtask.ts";

const question = "Is 391 a prime number?";
const worker = (id: string, model: string): Worker =>
  WorkerSchema.parse({ id, name: model, model });
const A = worker("id-a", "alpha");
const B = worker("id-b", "beta");
const C = worker("id-c", "gamma");
const D = worker("id-d", "delta");

const steps: Step[] = [
  { worker: "id-c", subtask: "Draft.", access: [] },
  { worker: "id-a", subtask: "Check.", access: [0] },
  { worker: "id-b", subtask: "Answer.", access: "all" },
];

/** Runs the steps on `pool`; each worker's own fake backend answers "<model> did <subtask>". */
async function run(pool: Pool, previousRound?: PriorStep[]) {
  const backends = new Map<string, FakeBackend>();
  const backendFor = (w: Worker) => {
    let b = backends.get(w.model);
    if (!b) {
      b = createFakeBackend((r) => ({ text: `${w.model} did ${subtaskOf(r)}` }));
      backends.set(w.model, b);
    }
    return b;
  };
  const gen = executeWorkflow({
    question,
    steps,
    pool,
    backendFor,
    signal: new AbortController().signal,
    retry: { maxAttempts: 1 },
    previousRound,
    now: () => 0,
  });
  const events: RunEvent[] = [];
  let outcome: WorkflowOutcome;
  for (;;) {
    const next = await gen.next();
    if (next.done) {
      outcome = next.value;
      break;
    }
    events.push(next.value);
  }
  /** Which model each subtask was sent to. */
  const calledBy = Object.fromEntries(
    [...backends].flatMap(([model, b]) => b.calls.map((c) => [subtaskOf(c), model])),
  );
  /** Each step's messages as sent, by step index. */
  const messages: ChatMessage[][] = [];
  for (const e of events) if (e.type === "step_start") messages[e.step] = e.messages;
  return { events, outcome, calledBy, messages };
}

const SAME_WORKERS = { "Draft.": "gamma", "Check.": "alpha", "Answer.": "beta" };
const outputs = ["gamma did Draft.", "alpha did Check."];

describe("pool edits never rewire a workflow", () => {
  it.each([
    ["the pool as planned", [A, B, C], { draft: 2, check: 0 }],
    ["the pool reordered", [C, A, B], { draft: 0, check: 1 }],
    ["a worker added at the front", [D, A, B, C], { draft: 3, check: 1 }],
  ] as const)(
    "%s: each step calls its own worker; agent numbers follow the order",
    async (_, pool, n) => {
      const r = await run([...pool]);
      expect(r.outcome.status).toBe("done");
      expect(r.calledBy).toEqual(SAME_WORKERS);
      expect(r.outcome.answer).toBe("beta did Answer.");
      // Step 1 sees the draft as written by the Draft step's worker, numbered by its place now.
      const check = r.messages[1]?.[0]?.content ?? "";
      expect(check).toContain(
        `<Agent ${n.draft} response>\ngamma did Draft.\n</Agent ${n.draft} response>`,
      );
      const answer = r.messages[2]?.[0]?.content ?? "";
      expect(answer).toContain(`<Subtask assigned to Agent ${n.draft}>\nDraft.`);
      expect(answer).toContain(
        `<Agent ${n.check} response>\nalpha did Check.\n</Agent ${n.check} response>`,
      );
      // Exactly the messages the prompt builder writes for the pool's order now.
      const workerIds = pool.map((w) => w.id);
      expect([0, 1, 2].map((index) => r.messages[index])).toEqual(
        [0, 1, 2].map((index) =>
          buildWorkerMessages({ question, steps, workerIds, index, outputs }),
        ),
      );
    },
  );

  it("numbers the previous round's agents by the pool's order now", async () => {
    const previousRound: PriorStep[] = [{ worker: "id-c", subtask: "Guess.", output: "Prime." }];
    const before = await run([A, B, C], previousRound);
    const after = await run([C, A, B], previousRound);
    expect(before.messages[2]?.[0]?.content).toContain("<Previous round Agent 2 response>");
    expect(after.messages[2]?.[0]?.content).toContain("<Previous round Agent 0 response>");
    expect(after.calledBy).toEqual(SAME_WORKERS);
  });

  it("fails a step whose worker left the pool with missing_worker, naming its id; no one else runs it", async () => {
    const r = await run([A, B, D]);
    const errors = r.events.filter((e) => e.type === "step_error");
    expect(errors).toEqual([
      expect.objectContaining({ step: 0, code: "missing_worker" }) as unknown,
    ]);
    const message = errors[0]?.type === "step_error" ? errors[0].message : "";
    expect(message).toContain('"id-c"');
    expect(
      r.events.filter((e) => e.type === "step_skip").map((e) => "step" in e && e.step),
    ).toEqual([1, 2]);
    // Nothing ran: in particular not delta, which now holds the place C had.
    expect(r.calledBy).toEqual({});
    expect(r.outcome.status).toBe("failed");
  });
});
