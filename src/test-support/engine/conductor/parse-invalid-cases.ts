/** Conductor outputs that must be refused, each with its specific error code. */
import type { Invalid } from "./parse-cases.ts";
import { TWO_LISTS } from "./parse-cases.ts";

export const INVALID: Invalid[] = [
  {
    name: "missing access list",
    text: `model_id = [2, 0]\nsubtasks = ["Design", "Implement"]\nThat should do it.`,
    code: "missing_list",
    mentions: ["access_list"],
  },
  {
    name: "prose only",
    text: `I think the best approach is to ask model 2 to solve it and then model 0 to check.`,
    code: "missing_list",
    mentions: ["model_id"],
  },
  {
    name: "placeholder list that is not a literal",
    text: `model_id = [2, 0, ...]\nsubtasks = ["A", "B"]\naccess_list = [[], []]`,
    code: "unparseable_list",
    mentions: ["model_id"],
  },
  {
    name: "lengths differ",
    text: `model_id = [2, 0]\nsubtasks = ["Design", "Implement", "Test"]\naccess_list = [[], "all"]`,
    code: "length_mismatch",
    mentions: ["model_id has 2", "subtasks 3", "access_list 2"],
  },
  {
    name: "zero steps in the first round",
    text: `Nothing to do here.\nmodel_id = []\nsubtasks = []\naccess_list = []`,
    code: "no_steps",
    mentions: ["model_id"],
  },
  {
    name: "six steps",
    text: `model_id = [0, 1, 2, 3, 4, 5]\nsubtasks = ["a", "b", "c", "d", "e", "f"]\naccess_list = [[], [], [], [], [], "all"]`,
    code: "too_many_steps",
    mentions: ["6 steps", "5"],
  },
  {
    name: "more steps than a custom cap",
    text: `model_id = [0, 1, 2, 3]\nsubtasks = ["a", "b", "c", "d"]\naccess_list = [[], [], [], "all"]`,
    options: { maxSteps: 3 },
    code: "too_many_steps",
    mentions: ["4 steps", "3"],
  },
  {
    name: "worker id out of range",
    text: `model_id = [2, 7]\nsubtasks = ["Solve", "Check"]\naccess_list = [[], "all"]`,
    code: "bad_worker",
    mentions: ["step 2", "7"],
  },
  {
    name: "negative worker id",
    text: `model_id = [-1]\nsubtasks = ["Solve"]\naccess_list = [[]]`,
    code: "bad_worker",
    mentions: ["step 1", "-1"],
  },
  {
    name: "fractional worker id",
    text: `model_id = [0, 1.5]\nsubtasks = ["Solve", "Check"]\naccess_list = [[], "all"]`,
    code: "bad_worker",
    mentions: ["step 2", "1.5"],
  },
  {
    name: "worker named instead of numbered",
    text: `model_id = ["gpt-5"]\nsubtasks = ["Solve"]\naccess_list = [[]]`,
    code: "bad_worker",
    mentions: ["step 1", "gpt-5"],
  },
  {
    name: "step 0 sees itself",
    text: `model_id = [0, 1]\nsubtasks = ["Solve", "Check"]\naccess_list = [[0], "all"]`,
    code: "bad_access",
    mentions: ["step 1", "[0]"],
  },
  {
    name: "step 0 sees a later step",
    text: `model_id = [0, 1]\nsubtasks = ["Solve", "Check"]\naccess_list = [[1], []]`,
    code: "bad_access",
    mentions: ["step 1", "[1]"],
  },
  {
    name: "step 2 sees itself",
    text: `model_id = [0, 1, 2]\nsubtasks = ["Solve", "Check", "Merge"]\naccess_list = [[], [0], [2]]`,
    code: "bad_access",
    mentions: ["step 3", "[2]"],
  },
  {
    name: "negative access index",
    text: `model_id = [0, 1]\nsubtasks = ["Solve", "Check"]\naccess_list = [[], [-1]]`,
    code: "bad_access",
    mentions: ["step 2", "[-1]"],
  },
  {
    name: "access entry that is neither a list nor all",
    text: `model_id = [0, 1]\nsubtasks = ["Solve", "Check"]\naccess_list = [[], "previous"]`,
    code: "bad_access",
    mentions: ["step 2", "previous"],
  },
  {
    name: "empty subtask",
    text: `model_id = [0, 1]\nsubtasks = ["Solve", "   "]\naccess_list = [[], "all"]`,
    code: "empty_subtask",
    mentions: ["step 2"],
  },
  {
    name: "subtask that is not a string",
    text: `model_id = [0]\nsubtasks = [["Solve"]]\naccess_list = [[]]`,
    code: "unparseable_list",
    mentions: ["subtasks", "step 1"],
  },
  {
    name: "truncated inside a subtask string",
    text: `Plan:\nmodel_id = [2, 0]\nsubtasks = ["Design an efficient algorithm", "Implement it in Pyt`,
    code: "unparseable_list",
    mentions: ["subtasks"],
  },
  {
    name: "truncated before the access list",
    text: `model_id = [2, 0]\nsubtasks = ["Design an efficient algorithm", "Implement it in Python"]\nacc`,
    code: "missing_list",
    mentions: ["access_list"],
  },
  {
    name: "truncated inside the model ids",
    text: `After weighing the options, model_id = [2, `,
    code: "unparseable_list",
    mentions: ["model_id"],
  },
  {
    name: "truncated inside the access list",
    text: `${TWO_LISTS.slice(0, -6)}`,
    code: "unparseable_list",
    mentions: ["access_list"],
  },
  {
    name: "pure nonsense",
    text: `}{][ ]]] === :::: model model model ["unclosed`,
    code: "missing_list",
    mentions: ["model_id"],
  },
  { name: "empty string", text: "", code: "missing_list", mentions: ["model_id"] },
  {
    name: "a plan only inside an unclosed <think>",
    text: `<think>\nmodel_id = [0]\nsubtasks = ["Solve"]\naccess_list = [[]]`,
    code: "missing_list",
    mentions: ["model_id"],
  },
  {
    name: "a plan before a stray </think> is reasoning, not a fallback",
    text: `${TWO_LISTS}\nGood.</think>\nmodel_id = [2, 8]\nsubtasks = ["Design", "Implement"]\naccess_list = [[], "all"]`,
    code: "bad_worker",
    mentions: ["step 2", "8"],
  },
  {
    name: "a plan inside a <think> block is not a fallback",
    text: `<think>${TWO_LISTS}</think>\nmodel_id = [2, 0]\nsubtasks = ["Design", ""]\naccess_list = [[], "all"]`,
    code: "empty_subtask",
    mentions: ["step 2"],
  },
  {
    name: "no triple validates: the last one's error is reported",
    text: `model_id = [9]\nsubtasks = ["Ask model nine"]\naccess_list = [[]]\nFixed:\nmodel_id = [1, 2]\nsubtasks = ["Solve"]\naccess_list = [[]]`,
    code: "length_mismatch",
    mentions: ["model_id has 2", "subtasks 1"],
  },
  // Pinned by mutation testing: each of these passed with a broken check.
  {
    name: "only the access list is longer",
    text: `model_id = [2, 0]\nsubtasks = ["Design", "Implement"]\naccess_list = [[], "all", []]`,
    code: "length_mismatch",
    mentions: ["model_id has 2", "subtasks 2", "access_list 3"],
  },
  {
    name: "a worker id with letters after its digits",
    text: `model_id = ["1a", 0]\nsubtasks = ["Design", "Implement"]\naccess_list = [[], "all"]`,
    code: "bad_worker",
    mentions: ["step 1", "1a"],
  },
  {
    name: "a bare number as an access entry",
    text: `model_id = [2, 0]\nsubtasks = ["Design", "Implement"]\naccess_list = [[], 0]`,
    code: "bad_access",
    mentions: ["step 2"],
  },
];
