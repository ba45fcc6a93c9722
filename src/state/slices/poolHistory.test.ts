import { beforeEach, describe, expect, it } from "vitest";
import type { Worker } from "../../engine/schema/worker.ts";
import { headerSecretId } from "./keybinding.ts";
import { setHeader } from "../storage/keyring.ts";
import { removeWorker } from "./pool.ts";
import { POOL_UNDO_LIMIT } from "./poolHistory.ts";
import { useStudio } from "./store.ts";

const initial = useStudio.getState();
beforeEach(() => useStudio.setState(initial, true));

const worker = (id: string, baseURL: string): Worker => ({
  id,
  name: id,
  kind: "openai",
  baseURL,
  model: "m",
  temperature: 0.2,
  maxTokens: 16,
  prefill: false,
});
const A = worker("a", "https://a.example/v1");
const B = worker("b", "https://b.example/v1");

const st = () => useStudio.getState();
const names = () => st().pool.map((w) => w.name);
const labels = () => st().poolUndo.map((e) => e.label);

/** A pool of A and B with nothing to undo. */
function start() {
  useStudio.setState({ pool: [A, B], poolUndo: [], poolRedo: [] });
}

describe("pool undo and redo", () => {
  it("undoes an edit back to the pool before it, and redoes it", () => {
    start();
    st().updateWorker("a", { name: "Alpha" });
    expect(names()).toEqual(["Alpha", "b"]);
    st().undoPool();
    expect(st().pool).toEqual([A, B]);
    expect(st().poolUndo).toHaveLength(0);
    expect(st().poolRedo).toHaveLength(1);
    st().redoPool();
    expect(names()).toEqual(["Alpha", "b"]);
    expect(st().poolRedo).toHaveLength(0);
    expect(labels()).toEqual(["edit name of “a”"]);
  });

  it("names the edited fields in the form's words, never the schema's", () => {
    start();
    st().updateWorker("a", { headers: { "X-Team": "blue" }, plainHeaders: ["X-Team"] });
    st().updateWorker("a", { baseURL: "http://127.0.0.1:1/v1" });
    st().updateWorker("b", { maxTokens: 99, extraBody: { seed: 1 } });
    expect(labels()).toEqual([
      "edit headers of “a”",
      "edit base URL of “a”",
      "edit extra request fields and max tokens of “b”",
    ]);
  });

  it("does nothing with nothing to undo or redo, and records no step for an unchanged pool", () => {
    start();
    st().undoPool();
    st().redoPool();
    expect(st().pool).toEqual([A, B]);
    st().setPool(st().pool);
    expect(st().poolUndo).toHaveLength(0);
  });

  it("typing into one field of one worker is one step; another field or worker is a new one", () => {
    start();
    for (const name of ["A", "Al", "Alp"]) st().updateWorker("a", { name });
    expect(st().poolUndo).toHaveLength(1);
    st().updateWorker("a", { model: "m2" }); // another field
    st().updateWorker("b", { model: "m3" }); // another worker, same field
    st().updateWorker("b", { model: "m34" });
    expect(st().poolUndo).toHaveLength(3);
    st().undoPool();
    expect(st().pool.map((w) => w.model)).toEqual(["m2", "m"]);
    st().undoPool();
    expect(st().pool.map((w) => w.model)).toEqual(["m", "m"]);
    expect(names()).toEqual(["Alp", "b"]);
    st().undoPool(); // the whole typed name at once
    expect(st().pool).toEqual([A, B]);
  });

  it("typing after an undo starts a new step instead of joining the step now on top", () => {
    start();
    st().updateWorker("a", { name: "A1" });
    st().updateWorker("a", { model: "m2" });
    st().undoPool(); // the name edit is on top again
    st().updateWorker("a", { name: "X" });
    expect(st().poolUndo).toHaveLength(2);
    st().undoPool();
    expect(names()).toEqual(["A1", "b"]);
  });

  it("a new edit after an undo clears redo", () => {
    start();
    st().updateWorker("a", { name: "Alpha" });
    st().undoPool();
    expect(st().poolRedo).toHaveLength(1);
    st().setPool([B, A], "move");
    expect(st().poolRedo).toHaveLength(0);
    st().redoPool();
    expect(names()).toEqual(["b", "a"]);
  });

  it("undoing a removal brings back the worker's key, origin and secret header values", () => {
    start();
    st().setKey("a", "sk-a", "https://entered.example");
    setHeader("a", "X-Token", "tok-a", true);
    st().setKey("b", "sk-b");
    removeWorker("a");
    const header = headerSecretId("a", "X-Token");
    expect(st().keys).toEqual({ b: "sk-b" });
    expect(labels().at(-1)).toBe("remove “a”");

    st().undoPool();
    expect(st().pool.map((w) => w.id)).toEqual(["a", "b"]);
    expect(st().keys).toEqual({ a: "sk-a", [header]: "tok-a", b: "sk-b" });
    expect(st().keyOrigins).toEqual({
      a: "https://entered.example",
      [header]: "https://a.example",
      b: "https://b.example",
    });

    st().redoPool(); // removed again: its secrets go again
    expect(names()).toEqual(["b"]);
    expect(st().keys).toEqual({ b: "sk-b" });
    expect(st().keyOrigins).toEqual({ b: "https://b.example" });
    st().undoPool();
    expect(st().keys.a).toBe("sk-a");
    expect(st().keys[header]).toBe("tok-a");
  });

  it("undoing an add forgets the new worker's key, and redo brings both back", () => {
    start();
    st().addWorker(worker("c", "https://c.example/v1"));
    st().setKey("c", "sk-c");
    st().undoPool();
    expect(st().pool).toEqual([A, B]);
    expect(st().keys).toEqual({});
    expect(st().keyOrigins).toEqual({});
    st().redoPool();
    expect(st().pool.map((w) => w.id)).toEqual(["a", "b", "c"]);
    expect(st().keys).toEqual({ c: "sk-c" });
    expect(st().keyOrigins).toEqual({ c: "https://c.example" });
  });

  it("never reverts the keys of workers that stay", () => {
    start();
    st().setKey("b", "sk-old");
    st().setKey("a", "sk-a");
    removeWorker("a");
    st().setKey("b", "sk-new", "https://elsewhere.example");
    st().updateWorker("b", { baseURL: "https://b2.example/v1" });
    st().undoPool(); // the URL edit: b's key stays as it is now
    expect(st().pool[0]?.baseURL).toBe("https://b.example/v1");
    expect(st().keys.b).toBe("sk-new");
    st().undoPool(); // the removal: a's key returns, b's stays
    expect(st().keys).toEqual({ a: "sk-a", b: "sk-new" });
    expect(st().keyOrigins.b).toBe("https://elsewhere.example");
    st().redoPool();
    st().redoPool();
    expect(st().keys).toEqual({ b: "sk-new" });
  });

  it(`keeps the last ${POOL_UNDO_LIMIT} steps`, () => {
    start();
    for (let i = 0; i <= POOL_UNDO_LIMIT; i++)
      st().setPool([worker(`w${i}`, A.baseURL)], `step ${i}`);
    expect(st().poolUndo).toHaveLength(POOL_UNDO_LIMIT);
    expect(labels()[0]).toBe("step 1"); // "step 0", the oldest, fell off
    while (st().poolUndo.length) st().undoPool();
    expect(names()).toEqual(["w0"]); // not [A, B]: that step is gone
  });
});
