/** Conductor outputs that parse, with the exact steps expected. */
import type { Valid } from "./parse-cases.ts";
import { TWO, TWO_LISTS, s } from "./parse-cases.ts";

export const VALID: Valid[] = [
  {
    name: "clean output with prose before the lists",
    text: `This is a coding question, so one model should design the algorithm and a stronger coder should implement it.\n\n${TWO_LISTS}`,
    steps: TWO,
  },
  {
    name: "drafted plan in reasoning, then the final plan",
    text: `Let me draft a plan first.
model_id = [1, 1, 3]
subtasks = ["Solve it", "Solve it again", "Pick the better one"]
access_list = [[], [], ["all"]]
Hmm, two attempts by the same model is wasteful. A better plan:
${TWO_LISTS}`,
    steps: TWO,
  },
  {
    name: "fenced python block",
    text: `The question needs careful physics, so I will ask two models independently and then verify.\n\n\`\`\`python
model_id = [0, 2, 1]
subtasks = ["Solve the problem step by step.", "Solve the problem independently.", "Compare both answers and give the final one."]
access_list = [[], [], ["all"]]
\`\`\``,
    steps: [
      s(0, "Solve the problem step by step.", []),
      s(2, "Solve the problem independently.", []),
      s(1, "Compare both answers and give the final one.", "all"),
    ],
  },
  {
    name: "JSON object with double-quoted keys",
    text: `Here is the workflow as JSON:\n{"model_id": [3], "subtasks": ["Answer the trivia question directly."], "access_list": [[]]}`,
    steps: [s(3, "Answer the trivia question directly.", [])],
  },
  {
    name: "escaped quotes in both quote styles",
    text: `model_id = [4, 5]\nsubtasks = ["Explain what \\"stable\\" means here", 'Check the first agent\\'s answer']\naccess_list = [[], [0]]`,
    steps: [
      s(4, 'Explain what "stable" means here', []),
      s(5, "Check the first agent's answer", [0]),
    ],
  },
  {
    name: "smart double quotes as delimiters keep a smart apostrophe",
    text: `model_id = [1, 0]\nsubtasks = [“Solve the integral”, “Verify the previous agent’s result”]\naccess_list = [[], “all”]`,
    steps: [s(1, "Solve the integral", []), s(0, "Verify the previous agent’s result", "all")],
  },
  {
    name: "smart single quotes with a smart apostrophe inside",
    text: `model_id = [1]\nsubtasks = [‘Critique the model’s proof’]\naccess_list = [[]]`,
    steps: [s(1, "Critique the model’s proof", [])],
  },
  {
    name: "straight apostrophe inside a double-quoted string",
    text: `model_id = [2]\nsubtasks = ["Check the model's answer"]\naccess_list = [[]]`,
    steps: [s(2, "Check the model's answer", [])],
  },
  {
    name: "unescaped apostrophe inside a single-quoted string",
    text: `model_id = [2, 6]\nsubtasks = ['Check the model's answer', 'Write the user's final reply']\naccess_list = [[], 'all']`,
    steps: [s(2, "Check the model's answer", []), s(6, "Write the user's final reply", "all")],
  },
  {
    name: "brackets, commas and = inside subtask strings",
    text: `I need a dynamic-programming solution.\nmodel_id = [2, 0]\nsubtasks = ["Define dp[i][j] = best score, then compute a[i] = b[j] + 1", "Implement [the recurrence], test it"]\naccess_list = [[], [0]]`,
    steps: [
      s(2, "Define dp[i][j] = best score, then compute a[i] = b[j] + 1", []),
      s(0, "Implement [the recurrence], test it", [0]),
    ],
  },
  {
    name: "label words inside subtask strings are not labels",
    text: `model_id = [1, 3]\nsubtasks = ["Build a table with model_id = [3] and subtasks: [x] columns", "Review the access: [0] rules"]\naccess_list = [[], ["all"]]`,
    steps: [
      s(1, "Build a table with model_id = [3] and subtasks: [x] columns", []),
      s(3, "Review the access: [0] rules", "all"),
    ],
  },
  {
    name: "a label word in prose without a list is skipped",
    text: `The subtasks: are simple here, and access: should be shared. So model_id: we pick 0.\n${TWO_LISTS}`,
    steps: TWO,
  },
  {
    name: "trailing commas",
    text: `model_id = [2, 0,]\nsubtasks = ["Design an efficient algorithm", "Implement it in Python",]\naccess_list = [[], ["all",],]`,
    steps: TWO,
  },
  {
    name: "multi-line lists with comments",
    text: `Final plan:\nmodel_id = [\n    2,  # strong reasoner\n    0,  # coder\n]\nsubtasks = [\n    "Design an efficient algorithm",\n    "Implement it in Python",\n]\naccess_list = [\n    [],\n    ["all"],\n]`,
    steps: TWO,
  },
  {
    name: "bullets before labels",
    text: `My plan:\n- model_id = [2, 0]\n* subtasks = ["Design an efficient algorithm", "Implement it in Python"]\n3. access_list = [[], ["all"]]`,
    steps: TWO,
  },
  {
    name: "<think> block with a different draft",
    text: `<think>\nMaybe model_id = [5]\nsubtasks = ["Just answer"]\naccess_list = [[]]\nNo, this needs code.\n</think>\n${TWO_LISTS}`,
    steps: TWO,
  },
  {
    name: "closing </think> only (the prompt opened the block)",
    text: `model_id = [5]\nsubtasks = ["Just answer"]\naccess_list = [[]]\nNo, better to split.</think>\n${TWO_LISTS}`,
    steps: TWO,
  },
  {
    name: '"model id:" and "access list:" colon forms',
    text: `model id: [2, 0]\nsubtasks: ["Design an efficient algorithm", "Implement it in Python"]\naccess list: [[], ["all"]]`,
    steps: TWO,
  },
  {
    name: '"Model IDs =" with the short "Access" label',
    text: `Model IDs = [2, 0]\nSubtask = ["Design an efficient algorithm", "Implement it in Python"]\nAccess = [[], ["all"]]`,
    steps: TWO,
  },
  {
    name: "uppercase labels",
    text: `MODEL_ID = [2, 0]\nSUBTASKS = ["Design an efficient algorithm", "Implement it in Python"]\nACCESS_LIST = [[], ["ALL"]]`,
    steps: TWO,
  },
  {
    name: "worker ids and access indices as digit strings",
    text: `model_id = ["2", "0", "6"]\nsubtasks = ["Solve", "Solve differently", "Merge"]\naccess_list = [[], [], ["0", "1"]]`,
    steps: [s(2, "Solve", []), s(0, "Solve differently", []), s(6, "Merge", [0, 1])],
  },
  {
    name: '["all"] and "all" are the same; "all" on step 0 stays "all"',
    text: `model_id = [1, 2, 3]\nsubtasks = ["A", "B", "C"]\naccess_list = ["all", ["all"], "all"]`,
    steps: [s(1, "A", "all"), s(2, "B", "all"), s(3, "C", "all")],
  },
  {
    name: "single step for an easy question",
    text: `This is a simple factual question; one strong model suffices.\nmodel_id = [0]\nsubtasks = ["Answer: what is the capital of Australia?"]\naccess_list = [[]]`,
    steps: [s(0, "Answer: what is the capital of Australia?", [])],
  },
  {
    name: "five steps with fine-grained access",
    text: `Five steps: three attempts, a critic, a final writer.\nmodel_id = [0, 1, 2, 3, 4]\nsubtasks = ["Try 1", "Try 2", "Try 3", "Critique tries 1 and 3", "Write the final answer"]\naccess_list = [[], [], [], [2, 0, 0], [3]]`,
    steps: [
      s(0, "Try 1", []),
      s(1, "Try 2", []),
      s(2, "Try 3", []),
      s(3, "Critique tries 1 and 3", [0, 2]),
      s(4, "Write the final answer", [3]),
    ],
  },
  {
    name: "bold labels and inline code",
    text: `**model_id** = \`[2, 0]\`\n**subtasks**: ["Design an efficient algorithm", "Implement it in Python"]\n\`access_list = [[], ["all"]]\``,
    steps: TWO,
  },
  {
    name: "backticks inside a subtask string survive",
    text: `model_id = [0]\nsubtasks = ["Implement \`solve()\` and call it"]\naccess_list = [[]]`,
    steps: [s(0, "Implement `solve()` and call it", [])],
  },
  {
    name: "adjacent string literals and a triple-quoted string",
    text: `model_id = [1, 2]\nsubtasks = [\n  'Derive the formula '\n  'for the energy levels.',\n  """Check the derivation's\nfinal step""",\n]\naccess_list = [[], "all"]`,
    steps: [
      s(1, "Derive the formula for the energy levels.", []),
      s(2, "Check the derivation's\nfinal step", "all"),
    ],
  },
  {
    name: "escape sequences \\n, \\t and \\u",
    text: `model_id = [3]\nsubtasks = ["Line one\\nLine two\\tTabbed \\u00e9t\\u00e9"]\naccess_list = [[]]`,
    steps: [s(3, "Line one\nLine two\tTabbed été", [])],
  },
  {
    name: "subtasks are trimmed and a bare all is accepted",
    text: `model_id = [1, 2]\nsubtasks = ["   Solve it  ", "\\n Verify it "]\naccess_list = [[], [all]]`,
    steps: [s(1, "Solve it", []), s(2, "Verify it", "all")],
  },
  {
    name: "prose after the plan mentioning access: [] is ignored",
    text: `${TWO_LISTS}\n\nHere access: [] means the first model sees only the question.`,
    steps: TWO,
  },
  {
    name: "last plan invalid, an earlier one valid: the earlier one is used",
    text: `${TWO_LISTS}\nOr maybe:\nmodel_id = [9]\nsubtasks = ["Ask model nine"]\naccess_list = [[]]`,
    steps: TWO,
  },
  {
    name: "refinement round: three empty lists keep the answer",
    text: `The previous answer is correct and well argued. No changes needed.\nmodel_id = []\nsubtasks = []\naccess_list = []`,
    options: { round: 1 },
    steps: [],
  },
  {
    name: "refinement round: a new plan is still parsed",
    text: `The answer has an arithmetic slip; ask a verifier.\nmodel_id = [0]\nsubtasks = ["Recheck the arithmetic of the previous answer"]\naccess_list = ["all"]`,
    options: { round: 1 },
    steps: [s(0, "Recheck the arithmetic of the previous answer", "all")],
  },
  {
    name: "a name that merely ends in a label is not a label",
    text: `\`\`\`python\nmodel_id = [2, 0]\nsubtasks = ["Design an efficient algorithm", "Implement it in Python"]\nprevious_access = [1]  # unused\naccess_list = [[], ["all"]]\n\`\`\``,
    steps: TWO,
  },
  {
    name: "a <think> block in the middle of the answer",
    text: `model_id = [2, 0]\n<think>Is model 2 right? subtasks = ["x"] would be too few. Yes, keep it.</think>\nsubtasks = ["Design an efficient algorithm", "Implement it in Python"]\naccess_list = [[], ["all"]]`,
    steps: TWO,
  },
  {
    name: "lists written in another order",
    text: `subtasks = ["Design an efficient algorithm", "Implement it in Python"]\nmodel_id = [2, 0]\naccess_list = [[], ["all"]]`,
    steps: TWO,
  },
];
