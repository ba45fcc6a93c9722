import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import type { Worker } from "../../engine/schema/worker.ts";
import { bootStudio } from "../storage/boot.ts";
import { openExport } from "./files.ts";
import { useStudio } from "../slices/store.ts";

const V2 = readFileSync(
  new URL("../../engine/run/fixtures/run-v2-nested.json", import.meta.url),
  "utf8",
);

/** A Storage whose quota a big pool exceeds, as a browser's localStorage does. */
function smallStorage(limit: number): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    key: (i: number) => [...data.keys()][i] ?? null,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (v.length > limit) throw new Error("QuotaExceededError: the quota has been exceeded.");
      data.set(k, v);
    },
    removeItem: (k: string) => void data.delete(k),
  };
}

const initial = useStudio.getState();
beforeEach(() => useStudio.setState(initial, true));

const mine: Worker[] = [
  {
    id: "mine",
    name: "Mine",
    kind: "openai",
    baseURL: "https://api.openai.com/v1",
    model: "gpt-5",
    temperature: 0.2,
    maxTokens: 100,
    prefill: false,
  },
];

describe("openExport: a refused import changes nothing; a good one leaves the pool alone", () => {
  it("a run whose pool would overflow settings storage opens, and the Settings pool stays as it was", async () => {
    bootStudio(smallStorage(20_000));
    useStudio.getState().setPool(mine);
    const doc = JSON.parse(V2) as { run: { id: string; pool: { note?: string }[] } };
    for (const w of doc.run.pool) w.note = "n".repeat(30_000);
    expect(await openExport(JSON.stringify(doc))).toBeNull();
    const s = useStudio.getState();
    expect(s.pool).toEqual(mine);
    expect(s.record.id).toBe(doc.run.id);
  });

  it("a run that breaks an invariant is refused before anything is applied", async () => {
    const doc = JSON.parse(V2) as { run: { rounds: { steps: { access: unknown }[] }[] } };
    doc.run.rounds[0]!.steps[0]!.access = [1];
    const before = useStudio.getState();
    expect(await openExport(JSON.stringify(doc))).toMatch(/names a later step/);
    expect(useStudio.getState()).toBe(before);
  });

  it("opens a good file, with a note when its steps were edited after planning", async () => {
    useStudio.getState().setPool(mine);
    useStudio.getState().setQuestion("My own question");
    expect(await openExport(V2)).toBeNull();
    expect(useStudio.getState().pool).toEqual(mine);
    expect(useStudio.getState().question).not.toBe("My own question");
    const doc = JSON.parse(V2) as { run: { rounds: { steps: { subtask: string }[] }[] } };
    doc.run.rounds[0]!.steps[0]!.subtask = "Edited.";
    expect(await openExport(JSON.stringify(doc))).toBeNull();
    expect(useStudio.getState().notice).toMatch(/differ from the Conductor's lists at step 1/);
  });
});
