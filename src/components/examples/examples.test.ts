// The shipped example runs (public/examples) against the import's own checks: a format change that
// breaks them fails here, and each is still what the empty canvas offers it as.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importRunChecked } from "../../engine/run/validate.ts";
import { EXAMPLES, isExampleRun } from "./examples.ts";

const read = (file: string) =>
  readFileSync(new URL(`../../../public/examples/${file}`, import.meta.url), "utf8");

describe("shipped example runs", () => {
  it.each(EXAMPLES.map((e) => e.file))("%s passes the import validation as an example", (file) => {
    const result = importRunChecked(read(file));
    if (!result.ok) throw new Error(result.message);
    const run = result.record;
    expect(run.status).toBe("done");
    expect(run.question).toMatch(/^Example: /);
    expect(isExampleRun(run.id)).toBe(true);
    expect(run.answer).toBeTruthy();
  });

  it("has a three-step workflow", () => {
    const result = importRunChecked(read("three-step.json"));
    if (!result.ok) throw new Error(result.message);
    expect(result.record.rounds.map((r) => r.steps.length)).toEqual([3]);
  });

  it("has a two-round run whose step given to the Conductor ran a nested workflow", () => {
    const result = importRunChecked(read("nested-two-rounds.json"));
    if (!result.ok) throw new Error(result.message);
    const run = result.record;
    expect(run.rounds.filter((r) => r.steps.length > 0)).toHaveLength(2);
    const self = run.pool.find((w) => w.kind === "conductor");
    const step = run.rounds[0]?.steps.find((s) => s.worker === self?.id);
    expect(step?.nested?.rounds[0]?.steps.length).toBe(2);
    expect(step?.output).toBe(step?.nested?.answer);
  });

  it("refuses a run id that is not an example's", () => {
    expect(isExampleRun("run-123")).toBe(false);
  });
});
