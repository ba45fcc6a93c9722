import { describe, expect, it } from "vitest";
import { POOL, TWO, TWO_LISTS, s } from "../../test-support/engine/conductor/parse-cases.ts";
import { INVALID } from "../../test-support/engine/conductor/parse-invalid-cases.ts";
import { VALID } from "../../test-support/engine/conductor/parse-valid-cases.ts";
import { createPartialPlanReader, parseConductorOutput, parsePartialSteps } from "./parse.ts";

describe("parseConductorOutput", () => {
  it("has a table of at least 45 realistic outputs", () => {
    expect(VALID.length + INVALID.length).toBeGreaterThanOrEqual(45);
  });

  it.each(VALID)("parses: $name", (row) => {
    const result = parseConductorOutput(row.text, { ...POOL, ...row.options });
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(result.steps).toEqual(row.steps);
    expect(result.lists).toEqual({
      model_id: row.steps.map((x) => x.worker),
      subtasks: row.steps.map((x) => x.subtask),
      access_list: row.steps.map((x) => x.access),
    });
  });

  it.each(INVALID)("rejects: $name", (row) => {
    const result = parseConductorOutput(row.text, { ...POOL, ...row.options });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe(row.code);
    expect(result.message.length).toBeGreaterThan(0);
    for (const part of row.mentions) expect(result.message).toContain(part);
  });

  it("does not throw on adversarial input", () => {
    const deep = `model_id = ${"[".repeat(5000)}`;
    const quotes = `subtasks = ["${"\\".repeat(999)}`;
    for (const text of [deep, quotes, "model_id = [", "\u0000[\u0000]", "<think>".repeat(100)]) {
      expect(parseConductorOutput(text, POOL).ok).toBe(false);
      expect(parsePartialSteps(text, POOL)).toEqual([]);
    }
  });
});

describe("parsePartialSteps", () => {
  const full = `The question asks for a proof, so two independent provers and a checker.
model_id = [0, 2, 1]
subtasks = ["Prove the lemma; state each step.", 'Prove it another way, don\\'t reuse [0]', "Check both proofs, pick one"]
access_list = [[], [], [0, 1]]
That is my plan.`;

  it("streams a non-decreasing number of complete steps, ending at the full parse", () => {
    const final = parseConductorOutput(full, POOL);
    expect(final.ok).toBe(true);
    if (!final.ok) return;
    let previous = 0;
    for (let end = 0; end <= full.length; end++) {
      const steps = parsePartialSteps(full.slice(0, end), POOL);
      expect(steps.length).toBeGreaterThanOrEqual(previous);
      // Never a half-written step: every returned step is the final one at that index.
      expect(steps).toEqual(final.steps.slice(0, steps.length));
      previous = steps.length;
    }
    expect(previous).toBe(3);
    expect(parsePartialSteps(full, POOL)).toEqual(final.steps);
  });

  it("returns nothing while the subtasks are half written", () => {
    expect(parsePartialSteps(`model_id = [2, 0]\nsubtasks = ["Design", "Implem`, POOL)).toEqual([]);
  });

  it("returns only the steps whose access entry is complete", () => {
    const text = `model_id = [2, 0]\nsubtasks = ["Design", "Implement"]\naccess_list = [[], ["al`;
    expect(parsePartialSteps(text, POOL)).toEqual([s(2, "Design", [])]);
  });

  it("does not return a subtask whose string is still open", () => {
    // Written in another order, so the access entries are complete before the subtasks.
    const text = `model_id = [2, 0]\naccess_list = [[], "all"]\nsubtasks = ["Design", "Impl`;
    expect(parsePartialSteps(text, POOL)).toEqual([s(2, "Design", [])]);
    expect(parsePartialSteps(`${text}ement", `, POOL)).toEqual([
      s(2, "Design", []),
      s(0, "Implement", "all"),
    ]);
  });

  it("follows the last triple being written, not an earlier draft", () => {
    const text = `${TWO_LISTS}\nActually:\nmodel_id = [5, 6]\nsubtasks = ["Solve", "Check"]\naccess_list = [[]`;
    expect(parsePartialSteps(text, POOL)).toEqual([]);
    expect(parsePartialSteps(`${text}, `, POOL)).toEqual([s(5, "Solve", [])]);
  });

  it("stops before the first step that is invalid on its own", () => {
    const text = `model_id = [1, 9, 2]\nsubtasks = ["a", "b", "c"]\naccess_list = [[], [], []]`;
    expect(parsePartialSteps(text, POOL)).toEqual([s(1, "a", [])]);
  });

  it("shows nothing while the model is still thinking", () => {
    expect(parsePartialSteps(`<think>\n${TWO_LISTS}`, POOL)).toEqual([]);
    expect(parsePartialSteps("", POOL)).toEqual([]);
  });
});

describe("parser under pathological output", () => {
  // Quadratic before (300,000 characters of this took over 30 s); linear now: about 30 ms on an idle
  // machine. The bound is loose so that a busy CI machine cannot fail it, yet a quadratic parser would.
  it.each([
    ["repeated model_id = ['", "model_id = ['"],
    ["a quote-comma loop", "a', 'model_id = ['"],
    ["repeated quotes", `"'`],
  ])("reads 300,000 characters of %s in linear time", (_name, unit) => {
    const text = `model_id = ['${unit.repeat(Math.ceil(300_000 / unit.length))}`;
    // How long it takes is printed by `npm run bench` (bench/parser.ts), against its target.
    const result = parseConductorOutput(text, { workers: 7 });
    expect(result.ok).toBe(false);
  });

  it("the streaming reader gives the same steps as parsing the prefix, re-parsing sparingly", () => {
    const text = `Plan.\n${TWO_LISTS}`;
    const reader = createPartialPlanReader(POOL);
    for (let i = 1; i <= text.length; i++) {
      expect(reader.read(text.slice(0, i))).toEqual(parsePartialSteps(text.slice(0, i), POOL));
    }
    const long = `${"x".repeat(100_000)}\n${TWO_LISTS}`;
    const longReader = createPartialPlanReader(POOL);
    longReader.read(long.slice(0, 100_000));
    // Less than an eighth more: not parsed again, the earlier (empty) answer stands.
    expect(longReader.read(long)).toEqual([]);
    expect(longReader.read(`${long}${" ".repeat(12_500)}`)).toEqual(TWO);
  });
});

describe("parsePartialSteps: drafts and truncation", () => {
  it("follows the plan being written, never a finished draft before it", () => {
    const draft = `Draft:\nmodel_id = [0, 1]\nsubtasks = ["Old one", "Old two"]\naccess_list = [[], []]\n`;
    expect(parsePartialSteps(`${draft}Better:\nmodel_id = [2, 0]\nsubtasks = ["New`, POOL)).toEqual(
      [],
    );
    expect(
      parsePartialSteps(
        `${draft}Better:\nmodel_id = [2, 0]\nsubtasks = ["New one", "New two"]\naccess_list = [[], `,
        POOL,
      ),
    ).toEqual([s(2, "New one", [])]);
  });

  it("follows another writing order only when each list was written once", () => {
    const once = `access_list = [[], "all"]\nmodel_id = [2, 0]\nsubtasks = ["Design", "Build"]`;
    expect(parsePartialSteps(once, POOL)).toEqual([s(2, "Design", []), s(0, "Build", "all")]);
    // Two access lists before the subtasks: which one belongs is ambiguous, so nothing is shown.
    const twice = `access_list = [[]]\naccess_list = [[], "all"]\nmodel_id = [2, 0]\nsubtasks = ["Design", "Build"]`;
    expect(parsePartialSteps(twice, POOL)).toEqual([]);
  });

  it("shows at most the step cap, and stops at the first step that is not valid", () => {
    const seven = `model_id = [0, 1, 2, 3, 4, 5, 6]\nsubtasks = ["a", "b", "c", "d", "e", "f", "g"]\naccess_list = [[], [], [], [], [], [], []]`;
    expect(parsePartialSteps(seven, { ...POOL, maxSteps: 5 })).toHaveLength(5);
    expect(parsePartialSteps(seven, { workers: 7, maxSteps: 3 })).toHaveLength(3);
    const badSecond = `model_id = [0, 9, 1]\nsubtasks = ["a", "b", "c"]\naccess_list = [[], [], []]`;
    expect(parsePartialSteps(badSecond, POOL)).toEqual([s(0, "a", [])]);
  });
});
