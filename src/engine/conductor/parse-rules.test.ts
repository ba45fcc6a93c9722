// parse.ts rule by rule: each label form, clean-up and check with the exact result or message it
// gives, and the streaming reader's re-parse thresholds at their boundaries.
import { describe, expect, it } from "vitest";
import type { PlannedStep } from "../schema/workflow.ts";
import type { ParseOptions } from "./parse.ts";
import { createPartialPlanReader, parseConductorOutput, parsePartialSteps } from "./parse.ts";

const O: ParseOptions = { workers: 3 };
const ONE = `model_id = [0]\nsubtasks = ["a"]\naccess_list = [[]]`;
const A: PlannedStep = { worker: 0, subtask: "a", access: [] };

describe("parseConductorOutput, rule by rule", () => {
  it.each<[string, string, PlannedStep[], Partial<ParseOptions>?]>([
    [
      "labels in any case, plural or with a hyphen",
      `Model IDs: [0]\nSubtask = ["a"]\nAccess Lists = [[]]`,
      [A],
    ],
    ["model-id and a bare access label", `model-id: [0]\nsubtasks: ["a"]\naccess: [[]]`, [A]],
    ["marked-up labels", `**model_id** = [0]\n\`subtasks\` = ["a"]\n"access_list": [[]]`, [A]],
    ["a label inside a longer name is none", `previous_access = [[]]\n${ONE}`, [A]],
    ["prose before a bracket is no label", `the subtasks: are [hard]\n${ONE}`, [A]],
    [
      "a label word inside a subtask",
      `model_id = [0]\nsubtasks = ["Compute the access: [1]"]\naccess_list = [[]]`,
      [{ worker: 0, subtask: "Compute the access: [1]", access: [] }],
    ],
    [
      "reasoning in think tags",
      `<think>model_id = [1]\nsubtasks = ["x"]\naccess_list = [[]]</think>${ONE}`,
      [A],
    ],
    [
      "reasoning before a closing tag alone",
      `model_id = [1]\nsubtasks = ["x"]\naccess_list = [[]]</think>${ONE}`,
      [A],
    ],
    ["an unclosed think tag after the plan", `${ONE}<think>model_id = [1]`, [A]],
    ["a fenced plan", "```python\n" + ONE + "\n```", [A]],
    [
      "bullets and numbers before the lists",
      `- model_id = [0]\n* subtasks = ["a"]\n1. access_list = [[]]`,
      [A],
    ],
    ["another writing order", `subtasks = ["a"]\naccess_list = [[]]\nmodel_id = [0]`, [A]],
    [
      "the last triple that validates",
      `${ONE}\nmodel_id = [1, 2]\nsubtasks = ["b"]\naccess_list = [[]]`,
      [A],
    ],
    [
      "ids and access written as strings",
      `model_id = ["1", " 2 "]\nsubtasks = ["a", "b"]\naccess_list = ["all", ["ALL"]]`,
      [
        { worker: 1, subtask: "a", access: "all" },
        { worker: 2, subtask: "b", access: "all" },
      ],
    ],
    [
      "access sorted, without repeats",
      `model_id = [0, 1, 2]\nsubtasks = [" a ", "b", "c"]\naccess_list = [[], [0, 0], [1, 0, 1]]`,
      [A, { worker: 1, subtask: "b", access: [0] }, { worker: 2, subtask: "c", access: [0, 1] }],
    ],
    [
      "three empty lists in a refinement round",
      `model_id = []\nsubtasks = []\naccess_list = []`,
      [],
      { round: 1 },
    ],
    [
      "exactly the step cap",
      `model_id = [0, 0]\nsubtasks = ["a", "a"]\naccess_list = [[], []]`,
      [A, A],
      { maxSteps: 2 },
    ],
  ])("reads %s", (_name, text, steps, options) => {
    const r = parseConductorOutput(text, { ...O, ...options });
    expect(r).toEqual({
      ok: true,
      steps,
      lists: {
        model_id: steps.map((s) => s.worker),
        subtasks: steps.map((s) => s.subtask),
        access_list: steps.map((s) => s.access),
      },
    });
  });

  it.each<[string, string, string, Partial<ParseOptions>?]>([
    [
      "nothing here",
      "missing_list",
      `The Conductor's output has no parseable list for model_id (expected a line like "model_id = [...]").`,
    ],
    [
      "model_id = [0]",
      "missing_list",
      `The Conductor's output has no parseable list for subtasks (expected a line like "subtasks = [...]").`,
    ],
    [
      `model_id = [0]\nsubtasks = ["a"]`,
      "missing_list",
      `The Conductor's output has no parseable list for access_list (expected a line like "access_list = [...]").`,
    ],
    [
      `model_id = [0\nsubtasks = ["a"]\naccess_list = [[]]`,
      "unparseable_list",
      "A list in the Conductor's output could not be read: model_id: expected ',' or ']' but found 's' at offset 14.",
    ],
    [
      `model_id = [0]\nsubtasks = ["a"]\naccess_list = [[]`,
      "unparseable_list",
      "A list in the Conductor's output could not be read: access_list: the list has no closing ']'.",
    ],
    [
      `model_id = [3]\nsubtasks = ["a"]\naccess_list = [[]]`,
      "bad_worker",
      "A model id is not a worker in the pool: step 1 (index 0) has model id 3; the pool has ids 0 to 2.",
    ],
    [
      ONE,
      "bad_worker",
      "A model id is not a worker in the pool: step 1 (index 0) has model id 0; the pool has no workers.",
      { workers: 0 },
    ],
    [
      `model_id = [1.5]\nsubtasks = ["a"]\naccess_list = [[]]`,
      "bad_worker",
      "A model id is not a worker in the pool: step 1 (index 0) has model id 1.5; the pool has ids 0 to 2.",
    ],
    [
      `model_id = [-1]\nsubtasks = ["a"]\naccess_list = [[]]`,
      "bad_worker",
      "A model id is not a worker in the pool: step 1 (index 0) has model id -1; the pool has ids 0 to 2.",
    ],
    [
      `model_id = [0]\nsubtasks = [1]\naccess_list = [[]]`,
      "unparseable_list",
      "A list in the Conductor's output could not be read: subtasks: step 1 (index 0) is 1, not a string.",
    ],
    [
      `model_id = [0]\nsubtasks = ["  "]\naccess_list = [[]]`,
      "empty_subtask",
      "A subtask is empty: step 1 (index 0) has no instruction.",
    ],
    [
      `model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[], [1]]`,
      "bad_access",
      `An access entry must be "all", [] or a list of earlier step indices: step 2 (index 1) has access [1]; earlier indices are 0 to 0.`,
    ],
    [
      `model_id = [0]\nsubtasks = ["a"]\naccess_list = [[0]]`,
      "bad_access",
      `An access entry must be "all", [] or a list of earlier step indices: step 1 (index 0) has access [0]; it is the first step, so only [] or "all".`,
    ],
    [
      `model_id = [0]\nsubtasks = ["a"]\naccess_list = [5]`,
      "bad_access",
      `An access entry must be "all", [] or a list of earlier step indices: step 1 (index 0) has access 5; it is the first step, so only [] or "all".`,
    ],
    [
      `model_id = [0]\nsubtasks = ["a"]\naccess_list = [["x"]]`,
      "bad_access",
      `An access entry must be "all", [] or a list of earlier step indices: step 1 (index 0) has access ["x"]; it is the first step, so only [] or "all".`,
    ],
    [
      `model_id = [0, 1]\nsubtasks = ["a"]\naccess_list = [[]]`,
      "length_mismatch",
      "The three lists have different lengths: model_id has 2, subtasks 1, access_list 1.",
    ],
    [
      `model_id = [0]\nsubtasks = ["a"]\naccess_list = [[], []]`,
      "length_mismatch",
      "The three lists have different lengths: model_id has 1, subtasks 1, access_list 2.",
    ],
    [
      `model_id = []\nsubtasks = []\naccess_list = []`,
      "no_steps",
      "The Conductor wrote an empty workflow; at least one step is needed. (model_id, subtasks and access_list are all empty)",
    ],
    [
      `model_id = [0,0,0]\nsubtasks = ["a","b","c"]\naccess_list = [[],[],[]]`,
      "too_many_steps",
      "The workflow has more steps than the cap: 3 steps (model_id), at most 2 allowed.",
      { maxSteps: 2 },
    ],
    [
      `model_id = ${JSON.stringify(Array(6).fill(0))}\nsubtasks = ${JSON.stringify(Array(6).fill("a"))}\naccess_list = ${JSON.stringify(Array(6).fill([]))}`,
      "too_many_steps",
      "The workflow has more steps than the cap: 6 steps (model_id), at most 5 allowed.",
    ],
  ])("refuses %j: %s", (text, code, message, options) => {
    expect(parseConductorOutput(text, { ...O, ...options })).toEqual({ ok: false, code, message });
  });
});

describe("drafts, odd entries and streaming", () => {
  it("pairs each model_id with the next subtasks and the next access_list after those", () => {
    const text = `model_id = [0]\naccess_list = [[]]\nsubtasks = ["a"]\naccess_list = [[]]`;
    expect(parseConductorOutput(text, O)).toMatchObject({ ok: true, steps: [A] });
    // The latest list of each name would not fit together: the triple is found in order.
    const draft = `${text}\nsubtasks = ["b", "c"]`;
    expect(parseConductorOutput(draft, O)).toMatchObject({ ok: true, steps: [A] });
  });

  it("reads ids and access words as written, and nothing else as an id", () => {
    const ids = (list: string, workers = 3) =>
      parseConductorOutput(`model_id = [${list}]\nsubtasks = ["a"]\naccess_list = [[]]`, {
        workers,
      });
    expect(ids(`"12"`, 13)).toMatchObject({ ok: true, steps: [{ worker: 12 }] });
    expect(ids("[1]")).toMatchObject({ ok: false, code: "bad_worker" });
    expect(ids("True")).toMatchObject({ ok: false, code: "bad_worker" });
    const access = (entry: string) =>
      parseConductorOutput(
        `model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[], ${entry}]`,
        O,
      );
    expect(access(`" all "`)).toMatchObject({ ok: true, steps: [A, { access: "all" }] });
    expect(access(`["all", 0]`)).toMatchObject({ ok: false, code: "bad_access" });
  });

  it("a streaming parse stops at a list cut off at the end: labels after it are inside it", () => {
    const cut = `model_id = [0, 1]\nsubtasks = ["a", "b\naccess_list = [[], []]`;
    expect(parsePartialSteps(cut, O)).toEqual([]);
  });

  it("streams nothing, and never throws, while a list is missing", () => {
    expect(parsePartialSteps(`model_id = [0]\nsubtasks = ["a"]`, O)).toEqual([]);
    expect(parsePartialSteps(`model_id = [0]\naccess_list = [[]]`, O)).toEqual([]);
    expect(parsePartialSteps(`subtasks = ["a"]\naccess_list = [[]]`, O)).toEqual([]);
  });
});

describe("createPartialPlanReader", () => {
  const pad = (n: number) => "z".repeat(n);

  it("re-reads a short text only once an entry may have completed", () => {
    const reader = createPartialPlanReader(O);
    expect(reader.read(ONE)).toEqual([A]);
    // The new characters hold no separator: the steps of the last parse stand.
    expect(reader.read(pad(ONE.length) + "yy")).toEqual([A]);
    for (const mark of [",", "]", ")", ">"]) {
      const again = createPartialPlanReader(O);
      again.read(ONE);
      expect(again.read(pad(ONE.length) + mark), mark).toEqual([]);
    }
  });

  it("looks only at what arrived since the last call", () => {
    const reader = createPartialPlanReader(O);
    expect(reader.read(ONE)).toEqual([A]);
    // Separators earlier in the text do not count again; the same length is no retry.
    expect(reader.read("," + pad(ONE.length - 1))).toEqual([A]);
    expect(reader.read("," + pad(ONE.length - 1) + "yy")).toEqual([A]);
  });

  it("starts over when the text gets shorter (a retry)", () => {
    const reader = createPartialPlanReader(O);
    expect(reader.read(`${ONE} and some more text`)).toEqual([A]);
    expect(reader.read("model_id")).toEqual([]);
  });

  it("re-reads a long text once it has grown by an eighth", () => {
    const long = ONE + pad(4096 - ONE.length); // exactly 4096 characters
    const reader = createPartialPlanReader(O);
    expect(reader.read(long)).toEqual([A]);
    expect(reader.read(pad(4096) + ",")).toEqual([A]); // grew by 1 of 512
    expect(reader.read(pad(4096 + 511))).toEqual([A]);
    expect(reader.read(pad(4096 + 512))).toEqual([]); // grew by 512: parsed again
  });

  it("applies the short rule below 4096 characters", () => {
    const short = ONE + pad(4095 - ONE.length);
    const reader = createPartialPlanReader(O);
    expect(reader.read(short)).toEqual([A]);
    expect(reader.read(pad(4095) + ",")).toEqual([]);
  });
});
