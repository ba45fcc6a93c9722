import { beforeAll, describe, expect, it } from "vitest";
import type { Grammar } from "@mlc-ai/web-xgrammar";
import type { PlannedStep } from "../schema/workflow.ts";
import { formatLists } from "./format.ts";
import { buildPlanGrammar, ebnfLiteral } from "./grammar.ts";
import type { PlanGrammarOptions } from "./grammar.ts";
import { parseConductorOutput } from "./parse.ts";
import { POOL } from "../../test-support/engine/conductor/parse-cases.ts";
import { VALID } from "../../test-support/engine/conductor/parse-valid-cases.ts";
import { DEFAULT_OPENING } from "./prompt.ts";
import { loadXGrammar } from "../../node/xgrammar/load.ts";

const xg = loadXGrammar();
const cache = new Map<string, Grammar>();

async function grammarFor(o: PlanGrammarOptions): Promise<Grammar> {
  const text = buildPlanGrammar(o);
  const hit = cache.get(text);
  if (hit) return hit;
  const grammar = await xg.Grammar.fromEBNF(text);
  cache.set(text, grammar);
  return grammar;
}

/** Whether xgrammar's own matcher accepts the whole string under the grammar. */
async function accepts(o: PlanGrammarOptions, text: string): Promise<boolean> {
  return xg.Testings.isGrammarAcceptString(await grammarFor(o), text);
}

/** A Conductor output in the form the prompt asks for: the opening, reasoning, the three lists. */
const written = (steps: readonly PlannedStep[], reasoning = "Two models then a check.") =>
  `${DEFAULT_OPENING} ${reasoning}\n${formatLists(steps)}`;

const plan = (opening: string, lists: string) => `${opening} This needs a careful plan.\n${lists}`;

const POOL3: PlanGrammarOptions = { workers: 3, maxSteps: 3, opening: DEFAULT_OPENING };

describe("buildPlanGrammar through xgrammar's matcher", () => {
  beforeAll(async () => {
    await grammarFor(POOL3);
  });

  it("accepts every valid plan of the parser tables that fits its pool, written as the prompt asks", async () => {
    let checked = 0;
    for (const row of VALID) {
      const options = { ...POOL, ...row.options };
      const maxSteps = options.maxSteps ?? 5;
      const fits = row.steps.every((s) => s.worker < options.workers);
      if (!fits || row.steps.length > maxSteps) continue;
      const text = written(row.steps);
      const o = { workers: options.workers, maxSteps, round: options.round ?? 0 };
      // The parser reads the same text back to the same steps: it stays the judge.
      expect(parseConductorOutput(text, o), row.name).toMatchObject({ ok: true, steps: row.steps });
      expect(await accepts({ ...o, opening: DEFAULT_OPENING }, text), row.name).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
  }, 30_000);

  it("accepts spaced separators, fine-grained access and escapes", async () => {
    const lists = `model_id = [0, 2, 1]
subtasks = ["Solve \\"it\\"", "Solve it\\nagain \\u00e9", "Compare [0] and [1]"]
access_list = [[], [0], [0, 1]]`;
    expect(await accepts(POOL3, plan(DEFAULT_OPENING, lists))).toBe(true);
  });

  it("rejects out-of-range ids, too many steps, unequal lengths, forward access and empty subtasks", async () => {
    const bad = {
      "id out of range": `model_id = [3]\nsubtasks = ["Solve"]\naccess_list = [[]]`,
      "too many steps": `model_id = [0, 1, 2, 0]\nsubtasks = ["a", "b", "c", "d"]\naccess_list = [[], [], [], []]`,
      "unequal lengths": `model_id = [0, 1]\nsubtasks = ["Solve"]\naccess_list = [[], []]`,
      "forward access": `model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[1], []]`,
      "own index": `model_id = [0, 1]\nsubtasks = ["a", "b"]\naccess_list = [[], [1]]`,
      "empty subtask": `model_id = [0]\nsubtasks = [""]\naccess_list = [[]]`,
      "blank subtask": `model_id = [0]\nsubtasks = ["   "]\naccess_list = [[]]`,
      "zero steps in round 0": `model_id = []\nsubtasks = []\naccess_list = []`,
      "decreasing indices": `model_id = [0, 1, 2]\nsubtasks = ["a", "b", "c"]\naccess_list = [[], [], [1, 0]]`,
    };
    for (const [name, lists] of Object.entries(bad)) {
      expect(await accepts(POOL3, plan(DEFAULT_OPENING, lists)), name).toBe(false);
    }
  });

  it("requires the opening and rejects lists drafted in the reasoning", async () => {
    const lists = `model_id = [0]\nsubtasks = ["Solve"]\naccess_list = [[]]`;
    expect(await accepts(POOL3, plan(DEFAULT_OPENING, lists))).toBe(true);
    expect(await accepts(POOL3, plan("Let me think.", lists))).toBe(false);
    const draft = `${DEFAULT_OPENING} Draft: model_id = [1]\n${lists}`;
    expect(await accepts(POOL3, draft)).toBe(false);
    expect(await accepts(POOL3, `${DEFAULT_OPENING} <think>\n${lists}`)).toBe(false);
    expect(await accepts(POOL3, `${DEFAULT_OPENING} a < b and 3<4\n${lists}`)).toBe(true);
  });

  it("bounds the reasoning", async () => {
    const lists = `model_id = [0]\nsubtasks = ["Solve"]\naccess_list = [[]]`;
    const o = { ...POOL3, maxReasoningChars: 50 };
    expect(await accepts(o, `${DEFAULT_OPENING}${"x".repeat(50)}\n${lists}`)).toBe(true);
    expect(await accepts(o, `${DEFAULT_OPENING}${"x".repeat(51)}\n${lists}`)).toBe(false);
  });

  it("allows the three empty lists in a refinement round only", async () => {
    const keep = `model_id = []\nsubtasks = []\naccess_list = []`;
    expect(await accepts({ ...POOL3, round: 1 }, plan(DEFAULT_OPENING, keep))).toBe(true);
    expect(await accepts({ ...POOL3, round: 0 }, plan(DEFAULT_OPENING, keep))).toBe(false);
    const one = `model_id = [2]\nsubtasks = ["Verify"]\naccess_list = [["all"]]`;
    expect(await accepts({ ...POOL3, round: 1 }, plan(DEFAULT_OPENING, one))).toBe(true);
  });

  it("has no fixed prefix for an empty opening, and escapes an opening with quotes", async () => {
    const lists = `model_id = [0]\nsubtasks = ["Solve"]\naccess_list = [[]]`;
    expect(await accepts({ workers: 1, opening: "" }, `Plan.\n${lists}`)).toBe(true);
    const opening = 'He said "plan" \\ then\nwent on: “smart”.';
    expect(ebnfLiteral(opening)).toBe('"He said \\"plan\\" \\\\ then\\nwent on: “smart”."');
    expect(await accepts({ workers: 1, opening }, plan(opening, lists))).toBe(true);
    expect(await accepts({ workers: 1, opening }, plan("He said", lists))).toBe(false);
  });

  it("builds for pools of 1 to 16 workers and 1 to 8 steps, and compiles with a tokenizer", async () => {
    let built = 0;
    for (let workers = 1; workers <= 16; workers++) {
      for (let maxSteps = 1; maxSteps <= 8; maxSteps++) {
        // Parsing and normalising the EBNF fails on any error in it.
        const text = buildPlanGrammar({ workers, maxSteps, opening: DEFAULT_OPENING });
        (await xg.Grammar.fromEBNF(text)).dispose();
        built++;
      }
    }
    expect(built).toBe(128);
    // A full compile (token masks) for a tiny vocabulary, at the corners and the paper's 7 x 5.
    const vocab = [...Array(95).keys()].map((i) => String.fromCharCode(32 + i));
    vocab.push("\n", "model_id", " = [", "subtasks", "access_list", '["all"]', "</s>");
    const info = await xg.TokenizerInfo.createTokenizerInfo(vocab, "raw", false, undefined, [
      vocab.length - 1,
    ]);
    const compiler = await xg.GrammarCompiler.createGrammarCompiler(info, false);
    for (const [workers, maxSteps] of [
      [1, 1],
      [7, 5],
      [16, 8],
    ] as const) {
      const text = buildPlanGrammar({ workers, maxSteps, opening: DEFAULT_OPENING });
      (await compiler.compileGrammar(text)).dispose();
    }
    compiler.dispose();
    info.dispose();
    // The largest one still decides plans correctly.
    const o = { workers: 16, maxSteps: 8, opening: DEFAULT_OPENING };
    const eight = Array.from({ length: 8 }, (_, i) => ({
      worker: 15 - i,
      subtask: `Step ${i}`,
      access: i === 0 ? [] : [0, i - 1].filter((v, k, a) => a.indexOf(v) === k),
    }));
    expect(await accepts(o, written(eight))).toBe(true);
    expect(await accepts(o, written([{ worker: 16, subtask: "x", access: [] }]))).toBe(false);
  }, 60_000);
});
