// Test support for the code presets' CLI tests (HumanEval/MBPP through the assert proxy, HumanEval+/
// MBPP+ through EvalPlus's comparison): two scripted solvers, one answering each question's right
// program and one its wrong one, and a preset run whose verdicts read as "strategy item" → correct.
import type { ExpectStatic } from "vitest";
import type { Harness } from "./cli-harness.ts";
import { promptText, readEvalResults, runMain, threeWorkerConfig } from "./cli-harness.ts";

/** A question's two programs: Solver A answers `right`, Solver B `wrong`. */
export type Programs = Record<string, { right: string; wrong: string }>;

const fence = (code: string) => `Here is the function.\n\`\`\`python\n${code}\n\`\`\``;

/**
 * Scripts Solver A (right programs) and Solver B (wrong ones) on the test server, each question found
 * by the `[id]` tag that `idPattern` captures in its prompt, and writes the pool's config.
 */
export async function scriptSolvers(h: Harness, programs: Programs, idPattern: RegExp) {
  const reply = (prompt: string, which: "right" | "wrong") => {
    const id = idPattern.exec(prompt)?.[1] ?? "";
    return { content: fence(programs[id]?.[which] ?? "pass"), latencyMs: 0 };
  };
  h.server.setDefault("solver-a", (body) => reply(promptText({ headers: {}, body }), "right"));
  h.server.setDefault("solver-b", (body) => reply(promptText({ headers: {}, body }), "wrong"));
  return h.file("pool.json", threeWorkerConfig(h.server));
}

/** `eval --preset PRESET --dataset FILE` with both solvers: its exit, stderr and verdicts. */
export async function runPreset(h: Harness, config: string, preset: string, dataset: string) {
  const out = `${h.dir}/${preset}.jsonl`;
  const r = await runMain([
    "eval",
    "--config",
    config,
    "--preset",
    preset,
    "--dataset",
    dataset,
    "--out",
    out,
    "--strategies",
    "single:Solver A,single:Solver B",
  ]);
  const rows = r.code === 0 ? await readEvalResults(out) : [];
  const verdicts = Object.fromEntries(rows.map((x) => [`${x.strategy} ${x.item}`, x.correct]));
  return { ...r, out, verdicts };
}

/** The verdicts expected when Solver A is right and Solver B wrong on every task. */
export function rightAndWrong(tasks: readonly string[]): Record<string, boolean> {
  return Object.fromEntries(
    tasks.flatMap((t) => [
      [`single:Solver A ${t}`, true],
      [`single:Solver B ${t}`, false],
    ]),
  );
}

/** A preset, its fixture file's name and the tasks that file holds. */
export type PresetCase = readonly [preset: string, file: string, tasks: readonly string[]];

/**
 * Runs each preset on `folder + file` with both solvers, expecting it to exit 0 with Solver A right
 * and Solver B wrong on every task; returns the results files, in order.
 */
export async function expectRightAndWrong(
  expect: ExpectStatic,
  h: Harness,
  config: string,
  folder: string,
  cases: readonly PresetCase[],
): Promise<string[]> {
  const outs: string[] = [];
  for (const [preset, file, tasks] of cases) {
    const r = await runPreset(h, config, preset, `${folder}${file}`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.verdicts).toEqual(rightAndWrong(tasks));
    outs.push(r.out);
  }
  return outs;
}
