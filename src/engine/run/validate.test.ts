import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MAX_POOL_WORKERS } from "../pool/invariants.ts";
import { POOL_FORMAT, importPool } from "../pool/transfer.ts";
import { exportRun } from "./export.ts";
import { importRunChecked } from "./validate.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const V1 = fixture("run-v1.json");
const V2 = fixture("run-v2-nested.json");
const V3 = fixture("run-v3-nested.json");
const V4 = fixture("run-v4-nested.json");

type Json = Record<string, unknown>;
/** A deep copy of the v2 fixture to break in one place. */
function v2(): Json {
  return JSON.parse(V2) as Json;
}
/** A deep copy of the v4 fixture (steps name their worker by id). */
function v4(): Json {
  return JSON.parse(V4) as Json;
}
/** A deep copy of the v3 fixture (steps name their worker by place in the pool). */
function v3(): Json {
  return JSON.parse(V3) as Json;
}
function run(doc: Json): Json {
  return doc.run as Json;
}
function round0(doc: Json): Json {
  return (run(doc).rounds as Json[])[0] as Json;
}
function step(doc: Json, i: number): Json {
  return (round0(doc).steps as Json[])[i] as Json;
}

function refused(doc: Json | string): string {
  const result = importRunChecked(typeof doc === "string" ? doc : JSON.stringify(doc));
  expect(result.ok).toBe(false);
  return result.ok ? "" : result.message;
}

describe("importRunChecked: the protocol's invariants after the schema", () => {
  it("opens every fixture", () => {
    for (const text of [V1, V2, V3, V4]) expect(importRunChecked(text).ok).toBe(true);
  });

  it("refuses access that points forward or at the step itself, naming the step", () => {
    const forward = v2();
    step(forward, 0).access = [1];
    expect(refused(forward)).toMatch(/round 1, step 1: its access names a later step \(1\)/);
    const self = v2();
    step(self, 0).access = [0];
    expect(refused(self)).toMatch(/round 1, step 1: its access names the step itself/);
  });

  it("refuses a whitespace-only subtask, naming the step", () => {
    for (const blank of ["   ", "\n\t ", "\u00a0"]) {
      const doc = v4();
      step(doc, 1).subtask = blank;
      expect(refused(doc)).toMatch(/round 1, step 2 has an empty subtask \(only whitespace\)/);
    }
    const ran = v4();
    step(ran, 0).subtask = "";
    step(ran, 0).status = "done";
    expect(refused(ran)).toMatch(/round 1, step 1 has an empty subtask/);
    const sketch = v4();
    step(sketch, 0).subtask = "";
    step(sketch, 0).status = "idle";
    const opened = importRunChecked(JSON.stringify(sketch));
    expect(opened.ok && opened.notes).toContain("round 1, step 1 has no subtask yet.");
  });

  it("refuses a step worker id that is not in the pool, and a model id its prompt did not show", () => {
    const doc = v4();
    step(doc, 0).worker = "zed";
    expect(refused(doc)).toMatch(
      /round 1, step 1: its worker "zed" is not one of the 3 in the pool/,
    );
    const lists = v4();
    (round0(lists).lists as Json).model_id = [0, 9];
    expect(refused(lists)).toMatch(
      /model_id\[1\] is 9, not one of the 3 workers its prompt showed/,
    );
    const fewer = v4();
    (round0(fewer).lists as Json).workerIds = ["a"];
    expect(refused(fewer)).toMatch(
      /model_id\[1\] is 2, not one of the 1 workers its prompt showed/,
    );
  });

  it("refuses a v2 or v3 step whose pool place is past the pool's end, naming the step", () => {
    const doc = v2();
    step(doc, 0).worker = 7;
    expect(refused(doc)).toMatch(
      /round 1, step 1: its worker "model-id-7" is not one of the 3 in the pool/,
    );
    const three = v3();
    step(three, 0).worker = 3;
    expect(refused(three)).toMatch(
      /round 1, step 1: its worker "model-id-3" is not one of the 3 in the pool/,
    );
    const nested = v3();
    const inner = (step(nested, 1).nested as Json).rounds as Json[];
    ((inner[0] as Json).steps as Json[])[1]!.worker = 5;
    expect(refused(nested)).toMatch(
      /round 1, step 2 › nested round 1, step 2: its worker "model-id-5" is not one of the 3 in the pool/,
    );
  });

  it("opens lists that showed a worker which has since left the pool, with a note", () => {
    const doc = v4();
    (round0(doc).lists as Json).workerIds = ["a", "gone", "c"];
    const result = importRunChecked(JSON.stringify(doc));
    expect(result.ok).toBe(true);
    expect(result.ok && result.notes).toContain(
      // Counted from 1 and never by its internal id ("gone"): by its place in the prompt.
      "round 1: the Conductor was shown a worker (Model id 1), which is no longer in the pool.",
    );
  });

  it("compares the steps with the lists through workerIds: the same number for another id differs", () => {
    const doc = v4();
    // model_id [0, 2] now stands for b and c, but step 0 ran on a.
    (round0(doc).lists as Json).workerIds = ["b", "a", "c"];
    const result = importRunChecked(JSON.stringify(doc));
    expect(result.ok && result.notes).toEqual([
      "round 1: the steps that ran differ from the Conductor's lists at step 1 (edited after planning).",
    ]);
  });

  it("refuses lists of different lengths and more steps than the cap", () => {
    const doc = v2();
    (round0(doc).lists as Json).subtasks = ["only one"];
    expect(refused(doc)).toMatch(/three lists have different lengths \(2, 1, 2\)/);
    const capped = v2();
    run(capped).maxSteps = 1;
    expect(refused(capped)).toMatch(/round 1 has 2 steps, more than the cap of 1/);
  });

  it("refuses duplicate worker ids, blank ids and non-http base URLs in a run's pool", () => {
    const dup = v2();
    const pool = run(dup).pool as Json[];
    pool[1] = { ...pool[1], id: pool[0]?.id };
    expect(refused(dup)).toMatch(/two workers share the id "a"/);
    const blank = v2();
    (run(blank).pool as Json[])[0]!.id = "   ";
    expect(refused(blank)).toMatch(/worker 0 has a blank id/);
    const js = v2();
    (run(js).pool as Json[])[0]!.baseURL = "javascript:alert(1)";
    expect(refused(js)).toMatch(/not http\(s\)/);
  });

  it("refuses a nested workflow on a step whose worker is not the Conductor", () => {
    const doc = v4();
    step(doc, 1).worker = "a";
    (round0(doc).lists as Json).model_id = [0, 0];
    expect(refused(doc)).toMatch(/holds a nested workflow, but its worker is not the Conductor/);
  });

  it("opens a run whose steps were edited after planning, with a note saying so", () => {
    const doc = v2();
    step(doc, 0).subtask = "Edited by hand.";
    const result = importRunChecked(JSON.stringify(doc));
    expect(result.ok && result.notes).toEqual([
      "round 1: the steps that ran differ from the Conductor's lists at step 1 (edited after planning).",
    ]);
  });

  it("refuses text that is not JSON with bad_json, without throwing", () => {
    const result = importRunChecked(`{"format": ${"x".repeat(500)}`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.code).toBe("bad_json");
  });

  it("refuses a workflow nested 500 levels deep with a message, without overflowing", () => {
    const doc = v2();
    let inner = step(doc, 1);
    for (let d = 1; d <= 500; d++) {
      const nested = { depth: d, question: "q", answer: null, rounds: [] as Json[] };
      const child = { ...step(v2(), 1), nested: null };
      nested.rounds.push({ ...round0(v2()), steps: [step(v2(), 0), child] });
      inner.nested = nested;
      inner = child;
    }
    const text = JSON.stringify(doc);
    expect(() => importRunChecked(text)).not.toThrow();
    expect(refused(text)).toMatch(/nested more than 100 levels deep/);
  });

  it("refuses a v2 file labelled version 1 instead of dropping its nested workflows", () => {
    const doc = v2();
    doc.version = 1;
    expect(refused(doc)).toMatch(/says version 1, but round 1, step 2 holds a nested workflow/);
  });

  it("quotes at most a short piece of the file", () => {
    const huge = "k".repeat(1_000_000);
    const pool = importPool(
      JSON.stringify({
        format: POOL_FORMAT,
        version: 1,
        workers: [{ id: "a", name: "a", [huge]: 1 }],
      }),
    );
    expect(pool.ok).toBe(false);
    if (!pool.ok) expect(pool.message.length).toBeLessThan(600);
    const dup = v2();
    const workers = run(dup).pool as Json[];
    workers[0]!.id = huge;
    workers[1]!.id = huge;
    expect(refused(dup).length).toBeLessThan(600);
  });

  it("drops the secret header values a file carries; plain ones stay", () => {
    const doc = v2();
    (run(doc).pool as Json[])[0]!.headers = { "X-Key": "file-secret", "X-Title": "t" };
    (run(doc).pool as Json[])[0]!.plainHeaders = ["X-Title"];
    const result = importRunChecked(JSON.stringify(doc));
    expect(result.ok && result.record.pool[0]?.headers).toEqual({
      "X-Key": "[redacted]",
      "X-Title": "t",
    });
    if (result.ok) expect(exportRun(result.record)).not.toContain("file-secret");
  });
});

describe("importPool: invariants", () => {
  const worker = (id: string, baseURL = "https://api.example/v1") => ({ id, name: id, baseURL });
  const file = (workers: unknown[]) => JSON.stringify({ format: POOL_FORMAT, version: 1, workers });

  it.each([
    ["a blank id", [worker(" ")], /blank id/],
    ["a javascript: base URL", [worker("a", "javascript:alert(1)")], /not http\(s\)/],
    ["a file: base URL", [worker("a", "file:///etc/passwd")], /not http\(s\)/],
    ["a base URL that is no URL", [worker("a", "api.example")], /not http\(s\)/],
    [
      "more workers than the cap",
      Array.from({ length: MAX_POOL_WORKERS + 1 }, (_, i) => worker(`w${i}`)),
      new RegExp(`${MAX_POOL_WORKERS + 1} workers; the most this app opens is ${MAX_POOL_WORKERS}`),
    ],
  ])("refuses %s", (_what, workers, message) => {
    const result = importPool(file(workers));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it("opens a pool at the cap, and one whose workers have no base URL yet", () => {
    const full = Array.from({ length: MAX_POOL_WORKERS }, (_, i) => worker(`w${i}`));
    expect(importPool(file(full)).ok).toBe(true);
    expect(importPool(file([worker("a", ""), worker("b", "http://localhost:11434/v1")])).ok).toBe(
      true,
    );
  });
});
