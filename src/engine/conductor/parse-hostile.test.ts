// parseConductorOutput and parsePartialSteps against hostile or sloppy completions: reasoning glued
// to prose, fences and bullets inside lists, lists written out of order or restated, a quote that
// never closes before a rewritten plan. Each case states what a user sees (the steps, or the code).
import { describe, expect, it } from "vitest";
import type { PlannedStep } from "../schema/workflow.ts";
import type { ParseOptions } from "./parse.ts";
import { parseConductorOutput, parsePartialSteps } from "./parse.ts";

const O: ParseOptions = { workers: 3 };
const ONE = `model_id = [0]\nsubtasks = ["a"]\naccess_list = [[]]`;
const A: PlannedStep = { worker: 0, subtask: "a", access: [] };
const AB: PlannedStep[] = [A, { worker: 1, subtask: "b", access: [0] }];

const steps = (text: string, options: ParseOptions = O) => {
  const r = parseConductorOutput(text, options);
  return r.ok ? r.steps : r.code;
};

describe("parseConductorOutput: clean-up of sloppy completions", () => {
  it.each<[string, string, PlannedStep[]]>([
    ["reasoning glued to a word before the plan", `Here it is<think>hmm</think>${ONE}`, [A]],
    [
      "a fence inline after a word",
      'The plan```model_id = [0]\nsubtasks = ["a"]\naccess_list = [[]]```',
      [A],
    ],
    // A list that opens on the line after its label, behind a fence with a language tag.
    [
      "a fenced list under its label",
      'model_id =\n```python\n[0]\n```\nsubtasks = ["a"]\naccess_list = [[]]',
      [A],
    ],
    [
      "a fenced list under its label, CRLF",
      'model_id =\r\n```python\r\n[0]\r\n```\r\nsubtasks = ["a"]\r\naccess_list = [[]]',
      [A],
    ],
    [
      "a fence whose language tag has trailing spaces",
      'model_id =\n```py \t\n[0]\n```\nsubtasks = ["a"]\naccess_list = [[]]',
      [A],
    ],
    [
      "a compact fenced plan (no spaces)",
      '```\nmodel_id=[0]\nsubtasks=["a"]\naccess_list=[[]]\n```',
      [A],
    ],
    ["camelCase labels", `modelId = [0]\nsubtasks = ["a"]\naccessList = [[]]`, [A]],
    ["labels run together", `ModelIDs: [0]\nsubtasks: ["a"]\nACCESSLISTS: [[]]`, [A]],
    [
      "bullets inside a list",
      `model_id = [0, 1]\nsubtasks = [\n  - "a",\n  - "b"\n]\naccess_list = [[], [0]]`,
      AB,
    ],
    [
      "tab-indented bullets inside a list",
      `model_id = [0, 1]\nsubtasks = [\n\t• "a",\n\t* "b"\n]\naccess_list = [[], [0]]`,
      AB,
    ],
    [
      "a numbered outline inside a list",
      `model_id = [0, 1]\nsubtasks = [\n1. "a",\n2) "b"\n]\naccess_list = [[], [0]]`,
      AB,
    ],
  ])("%s", (_name, text, expected) => {
    expect(steps(text)).toEqual(expected);
  });

  it("keeps a subtask that mentions a code fence as written", () => {
    const text = `model_id = [0]\nsubtasks = ["Return the code in a \`\`\`python block"]\naccess_list = [[]]`;
    expect(steps(text)).toEqual([
      { worker: 0, subtask: "Return the code in a ```python block", access: [] },
    ]);
    // A fence that opens a line, indented or not, is still taken away.
    expect(steps(`  \`\`\`python\n${ONE}\n  \`\`\``)).toEqual([A]);
  });

  it("keeps the bullets, numbers and fences of a triple-quoted multi-line subtask", () => {
    const subtask = "Steps:\n- parse the input\n1. count\n```python\nprint(1)\n```";
    const text = `- model_id = [0]\n- subtasks = ["""${subtask}"""]\n- access_list = [[]]`;
    expect(steps(text)).toEqual([{ worker: 0, subtask, access: [] }]);
    // Single quotes: the same, and an apostrophe in the prose before reaches no further than its line.
    const single = `Here's the plan:\n* model_id = [0]\n* subtasks = ['''${subtask}''']\n* access_list = [[]]`;
    expect(steps(single)).toEqual([{ worker: 0, subtask, access: [] }]);
    // After the string closes, bullets are taken away again.
    const after = `model_id = [0, 1]\nsubtasks = ["""a\n- b""",\n  - "c"]\naccess_list = [[], []]`;
    expect(steps(after)).toEqual([
      { worker: 0, subtask: "a\n- b", access: [] },
      { worker: 1, subtask: "c", access: [] },
    ]);
  });

  it("reads a list numbered past 9 as an outline", () => {
    const n = 10;
    const outline = Array.from({ length: n }, (_, i) => `${i + 1}. "s${i}",`).join("\n");
    const text =
      `model_id = [${Array(n).fill(0).join(", ")}]\n` +
      `subtasks = [\n${outline}\n]\n` +
      `access_list = [${Array(n).fill("[]").join(", ")}]`;
    const r = parseConductorOutput(text, { workers: 1, maxSteps: n });
    expect(r.ok && r.steps.map((st) => st.subtask)).toEqual(
      Array.from({ length: n }, (_, i) => `s${i}`),
    );
  });

  it("ignores what reasoning wrote before a lone closing tag, even a label that opens a list", () => {
    // Only what follows </think> is the answer: its access_list is missing.
    const r = parseConductorOutput(
      `I will write access:[</think>model_id = [0]\nsubtasks = ["a"]`,
      O,
    );
    expect(r).toMatchObject({ ok: false, code: "missing_list" });
    expect(!r.ok && r.message).toContain("access_list");
  });
});

describe("parseConductorOutput: missing, restated and garbled lists", () => {
  it("names model_id as missing when only the other two lists were written", () => {
    for (const text of [
      `subtasks = ["a"]\naccess_list = [[]]`,
      `subtasks = ["x"]\nsubtasks = ["a"]\naccess_list = [[]]`,
      `access_list = [[]]\nsubtasks = ["a"]\naccess_list = [[]]`,
    ]) {
      const r = parseConductorOutput(text, O);
      expect(r).toMatchObject({ ok: false, code: "missing_list" });
      expect(!r.ok && r.message).toContain("model_id (expected");
    }
    const noSubtasks = parseConductorOutput(`model_id = [0]\naccess_list = [[]]`, O);
    expect(!noSubtasks.ok && noSubtasks.message).toContain("subtasks (expected");
  });

  it("takes the rewritten plan after a list whose quote never closes", () => {
    // The first subtasks list opens a single quote that nothing closes: reading it runs to the end.
    const text = `model_id = [0]\nsubtasks = ['a]\nLet me rewrite.\nmodel_id = [1]\nsubtasks = ["b"]\naccess_list = [[]]`;
    expect(steps(text)).toEqual([{ worker: 1, subtask: "b", access: [] }]);
  });

  it("reads a lenient single-quoted plan after a double quote that never closed", () => {
    const text = `model_id = [0]\nsubtasks = ["Design it]\naccess_list = [[]]\nmodel_id = [1]\nsubtasks = ['it's fine']\naccess_list = [[]]`;
    expect(steps(text)).toEqual([{ worker: 1, subtask: "it's fine", access: [] }]);
  });
});

describe("parsePartialSteps: what a streaming view shows", () => {
  it("shows a complete plan written after a garbled list", () => {
    const text = `model_id = [0, x]\nmodel_id = [0]\nsubtasks = ["a"]\naccess_list = [[]]`;
    expect(parsePartialSteps(text, O)).toEqual([A]);
  });

  it("agrees with the full parse when the subtasks are restated", () => {
    const text = `model_id = [0]\nsubtasks = ["a"]\nsubtasks = ["b"]\naccess_list = [[]]`;
    expect(parsePartialSteps(text, O)).toEqual([A]);
    expect(steps(text)).toEqual([A]);
  });

  it("pairs the subtasks with the access_list written after them, not one before", () => {
    const text = `model_id = [0]\naccess_list = [["x"]]\nsubtasks = ["a"]\naccess_list = [[]]`;
    expect(parsePartialSteps(text, O)).toEqual([A]);
  });

  it("follows another writing order when each list was written once", () => {
    expect(parsePartialSteps(`subtasks = ["a"]\naccess_list = [[]]\nmodel_id = [0]`, O)).toEqual([
      A,
    ]);
  });
});
