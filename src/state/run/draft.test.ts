// The stored draft: version 2 names a step's worker by id; a version 1 draft (pool places) is read
// against the pool it was drafted with.
import { beforeEach, describe, expect, it } from "vitest";
import type { WorkflowDoc } from "../../engine/graph/document.ts";
import { createHistory } from "../../engine/graph/history.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { WorkerSchema } from "../../engine/schema/worker.ts";
import { DRAFT_KEY, DRAFT_VERSION, autosaveDraft, readDraft, restoreDraft } from "./draft.ts";
import { setRunStore } from "../storage/runStore.ts";
import { useStudio } from "../slices/store.ts";
import { memoryStorage } from "../../test-support/state/studio-state.ts";

const initial = useStudio.getState();
const stored = (version: number, value: unknown) =>
  memoryStorage({ [DRAFT_KEY]: JSON.stringify({ version, value }) });

const pool: Worker[] = ["gpt", "claude", "qwen"].map((id) => WorkerSchema.parse({ id, name: id }));
const positions = { s1: { x: 10, y: 20 } };
const v1Value = {
  question: "Is 391 prime?",
  doc: {
    steps: [
      { id: "s1", worker: 2, subtask: "Factor it.", access: [] },
      { id: "s2", worker: 0, subtask: "Check.", access: [0] },
      { id: "s3", worker: 5, subtask: "Answer.", access: "all" },
    ],
    positions,
  },
  openKey: null,
};

beforeEach(() => {
  useStudio.setState(initial, true);
  setRunStore(null);
});

describe("readDraft", () => {
  it("is at version 2", () => {
    expect(DRAFT_VERSION).toBe(2);
  });

  it('maps a version 1 draft\'s pool places to the ids of the pool; a place past its end to ""', () => {
    const draft = readDraft(stored(1, v1Value), pool);
    expect(draft?.doc.steps.map((s) => s.worker)).toEqual(["qwen", "gpt", ""]);
    // Everything else stays as it was.
    expect(draft).toEqual({
      ...v1Value,
      doc: {
        positions,
        steps: v1Value.doc.steps.map((s, i) => ({ ...s, worker: ["qwen", "gpt", ""][i] })),
      },
    });
    // Against another pool, the same places are other workers.
    const other = readDraft(stored(1, v1Value), [pool[2]!, pool[1]!]);
    expect(other?.doc.steps.map((s) => s.worker)).toEqual(["", "qwen", ""]);
  });

  it("reads a version 2 draft as stored, whatever the pool", () => {
    const value = {
      ...v1Value,
      doc: {
        positions,
        steps: [
          { id: "s1", worker: "claude", subtask: "Factor it.", access: [] },
          { id: "s2", worker: "gone", subtask: "Check.", access: "all" },
        ],
      },
      openKey: "run:1",
    };
    expect(readDraft(stored(2, value), pool)).toEqual(value);
    expect(readDraft(stored(2, value), [])).toEqual(value);
  });

  it("is null for no draft, unreadable text, a newer version or a version 1 draft with ids", () => {
    expect(readDraft(memoryStorage(), pool)).toBeNull();
    expect(readDraft(memoryStorage({ [DRAFT_KEY]: "{not json" }), pool)).toBeNull();
    expect(readDraft(stored(3, v1Value), pool)).toBeNull();
    const v2Shaped = {
      ...v1Value,
      doc: { positions, steps: [{ ...v1Value.doc.steps[0], worker: "qwen" }] },
    };
    expect(readDraft(stored(1, v2Shaped), pool)).toBeNull();
    expect(readDraft(stored(2, v1Value), pool)).toBeNull();
  });
});

describe("autosaveDraft and restoreDraft", () => {
  it("round-trips a version 2 draft: saved on pagehide, read back and restored exactly", async () => {
    const doc: WorkflowDoc = {
      steps: [
        { id: "s1", worker: "claude", subtask: "Factor it.", access: [] },
        { id: "s2", worker: "", subtask: "Not chosen yet.", access: "all" },
      ],
      positions,
    };
    useStudio.setState({ pool, question: "Is 391 prime?", history: createHistory(doc) });
    const storage = memoryStorage();
    const listeners: (() => void)[] = [];
    const page = {
      addEventListener: (_: string, f: () => void) => void listeners.push(f),
      removeEventListener: () => undefined,
    } as unknown as Pick<Window, "addEventListener" | "removeEventListener">;
    const stop = autosaveDraft(storage, page);
    for (const f of listeners) f();
    stop();
    const text = storage.getItem(DRAFT_KEY) ?? "";
    expect(JSON.parse(text)).toMatchObject({ version: 2 });
    expect(readDraft(storage, pool)).toEqual({ question: "Is 391 prime?", doc, openKey: null });

    useStudio.setState(initial, true);
    useStudio.setState({ pool: [pool[2]!, pool[1]!, pool[0]!] });
    await restoreDraft(storage);
    // A reordered pool changes nothing: the steps keep their workers by id.
    expect(useStudio.getState().history.present).toEqual(doc);
    expect(useStudio.getState().question).toBe("Is 391 prime?");
  });

  it("restores a version 1 draft onto the ids of the studio's pool", async () => {
    useStudio.setState({ pool });
    await restoreDraft(stored(1, v1Value));
    const steps = useStudio.getState().history.present.steps;
    expect(steps.map((s) => [s.id, s.worker])).toEqual([
      ["s1", "qwen"],
      ["s2", "gpt"],
      ["s3", ""],
    ]);
  });
});
