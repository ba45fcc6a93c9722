// `conductor-studio prompts`: randomised pools per question, the exact prompt, TRL and verl rows
// that the reward service takes back, and the cost estimate at the paper's scale.
import { readFile } from "node:fs/promises";
import { describe, it } from "vitest";
import { parquetReadObjects } from "hyparquet";
import { resolveConfig } from "../config.ts";
import { cliIt, threeWorkerConfig } from "../../test-support/cli/cli-harness.ts";
import type { Io } from "../command.ts";
import { UsageError } from "../command.ts";
import { main } from "../main.ts";
import { promptsCommand } from "./prompts.ts";
import { parsePoolSize } from "./prompts-rows.ts";
import { parseRewardArgs } from "../reward/args.ts";
import { startReward } from "../reward/server.ts";

function io(env: NodeJS.ProcessEnv = {}) {
  const out = { stdout: "", stderr: "" };
  const value: Io = {
    stdout: (s) => void (out.stdout += s),
    stderr: (s) => void (out.stderr += s),
    readStdin: () => Promise.resolve(""),
    env,
  };
  return { io: value, out };
}

const NAMES = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"];

function fiveWorkers(baseURL: string) {
  return {
    conductor: { baseURL, model: "conductor-7b" },
    workers: NAMES.map((name, i) => ({
      name,
      baseURL,
      model: name.toLowerCase(),
      price: { input: i + 1, output: 10 * (i + 1) },
    })),
  };
}

const questions = Array.from(
  { length: 20 },
  (_v, i) => `{"id":"q${i}","question":"What is ${i} plus one?","answer":"${i + 1}"}`,
).join("\n");

interface TrlRow {
  prompt: { role: string; content: string }[];
  id: string;
  question: string;
  ground_truth: string;
  scorer: string;
  pool: string[];
}

describe("conductor-studio prompts", () => {
  cliIt(
    "finds a file's columns by name as eval does, says so, and lets --columns override",
    async ({ expect, h }) => {
      const config = await h.file("pool.json", fiveWorkers(h.server.baseURL));
      const dataset = await h.file(
        "math.jsonl",
        '{"uid":"m1","problem":"What is 2 plus 2?","solution":"4","ref":"four"}',
      );
      const run = async (...extra: string[]) => {
        const t = io();
        const out = `${h.dir}/p${extra.length}.jsonl`;
        const args = ["--config", config, "--dataset", dataset, "--out", out, ...extra];
        expect(await promptsCommand.run(args, t.io), t.out.stderr).toBe(0);
        const [row] = (await readFile(out, "utf8"))
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as TrlRow);
        return { row: row!, stderr: t.out.stderr };
      };
      const guessed = await run();
      expect(guessed.row).toMatchObject({ id: "m1", ground_truth: "4" });
      expect(guessed.row.question).toMatch(/^What is 2 plus 2\?/);
      expect(guessed.stderr).toContain("Columns: question=problem, answer=solution, id=uid");
      const explicit = await run("--columns", "answer=ref");
      expect(explicit.row.ground_truth).toBe("four");
    },
  );

  cliIt(
    "samples a pool per question within --pool-size, seeded, and writes the prompt that lists it",
    async ({ expect, h }) => {
      const config = await h.file("pool.json", fiveWorkers(h.server.baseURL));
      const dataset = await h.file("train.jsonl", questions);
      const run = async (out: string, seed: string) => {
        const t = io();
        const code = await promptsCommand.run(
          [
            "--config",
            config,
            "--dataset",
            dataset,
            "--out",
            `${h.dir}/${out}`,
            "--pool-size",
            "2-4",
            "--seed",
            seed,
          ],
          t.io,
        );
        expect(code, t.out.stderr).toBe(0);
        const text = await readFile(`${h.dir}/${out}`, "utf8");
        return text
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as TrlRow);
      };
      const rows = await run("a.jsonl", "7");
      expect(rows).toHaveLength(20);
      const sizes = new Set(rows.map((r) => r.pool.length));
      expect([...sizes].every((n) => n >= 2 && n <= 4)).toBe(true);
      expect(sizes.size).toBeGreaterThan(1);
      expect(new Set(rows.map((r) => r.pool.join(","))).size).toBeGreaterThan(5);
      for (const r of rows) {
        expect(
          r.pool.every((n) => NAMES.includes(n)) && new Set(r.pool).size === r.pool.length,
        ).toBe(true);
        expect(r.prompt.map((m) => m.role)).toEqual(["system", "user"]);
        const user = r.prompt[1]!.content;
        expect(user).toContain(`USER QUESTION:\n${r.question}\nEND OF USER QUESTION`);
        expect(user).toContain(`Model id ${r.pool.length - 1}`);
        expect(user).not.toContain(`Model id ${r.pool.length}`);
        expect(r.scorer).toBe("math");
      }
      expect(rows[3]).toMatchObject({ id: "q3", ground_truth: "4" });
      expect(rows[3]!.question).toMatch(
        /^What is 3 plus one\?\n\nEnd your reply with a line "Answer:/,
      );
      expect(await run("b.jsonl", "7")).toEqual(rows);
      expect((await run("c.jsonl", "8")).map((r) => r.pool)).not.toEqual(rows.map((r) => r.pool));

      // verl's parquet beside it carries the same rows, extra_info holding what the reward needs.
      const verl = await parquetReadObjects({
        file: new Uint8Array(await readFile(`${h.dir}/a.verl.parquet`)).buffer,
      });
      expect(verl).toHaveLength(20);
      expect(verl[3]).toMatchObject({
        data_source: "train",
        ability: "reasoning",
        reward_model: { style: "rule", ground_truth: "4" },
        extra_info: {
          id: "q3",
          question: rows[3]!.question,
          reference: "4",
          scorer: "math",
          pool: rows[3]!.pool,
        },
        prompt: rows[3]!.prompt.map((m) => ({ content: m.content, role: m.role })),
      });
    },
  );

  cliIt(
    "rows go straight back to the reward service, which reads model ids against the row's pool",
    async ({ expect, h, onTestFinished }) => {
      const config = await h.file("pool.json", threeWorkerConfig(h.server));
      const dataset = await h.file(
        "q.jsonl",
        '{"id":"q1","question":"What is 1 plus one?","answer":"2"}\n',
      );
      const t = io();
      await promptsCommand.run(
        [
          "--config",
          config,
          "--dataset",
          dataset,
          "--out",
          `${h.dir}/p.jsonl`,
          "--pool-size",
          "3",
          "--seed",
          "3",
        ],
        t.io,
      );
      const row = JSON.parse(await readFile(`${h.dir}/p.jsonl`, "utf8")) as TrlRow;
      // Each worker answers with its own name, so the answer shows which one model id 0 reached.
      for (const [model, name] of [
        ["solver-a", "Solver A"],
        ["solver-b", "Solver B"],
        ["checker", "Checker"],
      ] as const)
        h.server.setDefault(model, {
          content: `I am ${name}.\nAnswer: ${name === row.pool[0] ? 2 : 0}`,
        });
      const resolved = resolveConfig(await readFile(config, "utf8"), {});
      if (!resolved.ok) throw new Error(resolved.message);
      const service = await startReward(
        parseRewardArgs(["--config", config, "--port", "0"], {}),
        resolved,
        () => undefined,
      );
      onTestFinished(() => service.shutdown(0));
      const completion = 'model_id = [0]\nsubtasks = ["Answer it."]\naccess_list = [[]]';
      const res = await fetch(`${service.url}/v1/rewards`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          items: [
            {
              id: row.id,
              question: row.question,
              completion,
              reference: row.ground_truth,
              scorer: row.scorer,
              pool: row.pool,
            },
          ],
        }),
      });
      const body = (await res.json()) as { rewards: { reward: number; answer: string }[] };
      expect(body.rewards[0]).toMatchObject({ reward: 1 });
      expect(body.rewards[0]!.answer).toContain(`I am ${row.pool[0]}.`);
    },
  );

  cliIt(
    "--estimate prints calls and money per step and for the run, at the paper's scale by default",
    async ({ expect, h }) => {
      const config = await h.file("pool.json", fiveWorkers(h.server.baseURL));
      const dataset = await h.file("train.jsonl", questions);
      const t = io();
      expect(
        await promptsCommand.run(["--config", config, "--dataset", dataset, "--estimate"], t.io),
      ).toBe(0);
      expect(t.out.stdout).toMatch(
        /per step: 4 questions x 64 rollouts = 256 plans, 640 worker calls \(2\.5 per plan\), \$\d/,
      );
      expect(t.out.stdout).toMatch(/whole run: 200 steps, 128,000 worker calls, \$[\d.]+/);
      const small = io();
      await promptsCommand.run(
        [
          "--config",
          config,
          "--dataset",
          dataset,
          "--estimate",
          "--rollouts",
          "8",
          "--steps",
          "10",
        ],
        small.io,
      );
      expect(small.out.stdout).toMatch(
        /32 plans, 80 worker calls .*\n.*10 steps, 800 worker calls/,
      );
      const money = (s: string) => Number(/whole run: .*\$([\d.]+)/.exec(s)?.[1]);
      expect(money(small.out.stdout)).toBeLessThan(money(t.out.stdout));
    },
  );

  it("checks its options", async ({ expect }) => {
    expect(parsePoolSize("3-7", 5)).toEqual({ min: 3, max: 5 });
    expect(parsePoolSize("4", 7)).toEqual({ min: 4, max: 4 });
    expect(parsePoolSize("6-7", 5)).toMatch(/only 5 worker/);
    expect(parsePoolSize("x", 5)).toMatch(/MIN-MAX/);
    await expect(promptsCommand.run(["--config", "c.json"], io().io)).rejects.toThrow(UsageError);
    // Both commands are registered: listed in the help, and a usage mistake exits 2.
    const help = io();
    expect(await main(["--help"], help.io)).toBe(0);
    expect(help.out.stdout).toMatch(/^ {2}reward +serve rewards for RL trainers/m);
    expect(help.out.stdout).toMatch(/^ {2}prompts +write GRPO training prompts/m);
    const own = io();
    expect(await main(["reward", "--help"], own.io)).toBe(0);
    expect(own.out.stdout).toContain("conductor-studio reward --config pool.json");
    expect(await main(["prompts", "--help"], own.io)).toBe(0);
    expect(own.out.stdout).toContain("conductor-studio prompts --config pool.json");
    const bad = io();
    expect(await main(["prompts", "--config", "c.json"], bad.io)).toBe(2);
    expect(bad.out.stderr).toMatch(/--config and --dataset are required/);
    expect(await main(["reward"], bad.io)).toBe(2);
    expect(bad.out.stderr).toMatch(/--config FILE is required/);
  });
});
