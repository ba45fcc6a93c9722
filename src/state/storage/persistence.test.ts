import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { emptyRecord } from "../../engine/run/record.ts";
import { RunStore } from "../../engine/store/db.ts";
import { WRITE_INTERVAL_MS, createRunWriter, endsSomething } from "./persistence.ts";
import { setRunStore } from "./runStore.ts";

let store: RunStore;
let saves: string[];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  store = new RunStore("writer", { indexedDB: new IDBFactory(), IDBKeyRange });
  saves = [];
  vi.spyOn(store, "saveRun").mockImplementation((record) => {
    saves.push(record.answer ?? "");
    return Promise.resolve({ ok: true, key: record.id });
  });
  setRunStore(store);
});
afterEach(() => {
  vi.useRealTimers();
  setRunStore(null);
});

const rec = (answer: string) => ({ ...emptyRecord("r"), answer });

describe("createRunWriter", () => {
  it("writes a streaming run at most once per interval, always its latest version", async () => {
    const writer = createRunWriter({}, () => undefined);
    writer.touch(rec("a"), false);
    await vi.advanceTimersByTimeAsync(0);
    expect(saves).toEqual(["a"]);
    for (const x of ["b", "c", "d"]) writer.touch(rec(x), false);
    await vi.advanceTimersByTimeAsync(WRITE_INTERVAL_MS - 1);
    expect(saves).toEqual(["a"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(saves).toEqual(["a", "d"]);
  });

  it("writes at once when a step ends, and flush waits for the last write", async () => {
    const writer = createRunWriter({}, () => undefined);
    writer.touch(rec("a"), false);
    await vi.advanceTimersByTimeAsync(0);
    writer.touch(rec("b"), false);
    writer.touch(rec("step done"), true);
    await vi.advanceTimersByTimeAsync(0);
    expect(saves).toEqual(["a", "step done"]);
    writer.touch(rec("end"), false);
    await writer.flush();
    expect(saves).toEqual(["a", "step done", "end"]);
  });

  it("reports a failed write", async () => {
    vi.spyOn(store, "saveRun").mockResolvedValue({
      ok: false,
      code: "storage_full",
      message: "full",
    });
    const messages: (string | null)[] = [];
    const writer = createRunWriter({}, (m) => messages.push(m));
    writer.touch(rec("a"), true);
    await writer.flush();
    expect(messages).toEqual(["full"]);
  });

  it("treats step, plan, round and run ends as the moments to write", () => {
    expect(endsSomething({ type: "step_delta", round: 0, step: 0, text: "x" })).toBe(false);
    expect(endsSomething({ type: "step_cancel", at: 1, round: 0, step: 0 })).toBe(true);
  });
});
