// `conductor-studio eval --preset`: the benchmark presets on the command line, read from local files
// in the Hub's row shape and from a local stand-in for the Hub, scored end to end against the local
// test server. LiveCodeBench's private tests are encoded by Python's own pickle, zlib and base64.
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "vitest";
import {
  chatRequests,
  cliIt,
  promptText,
  readEvalResults,
  runMain,
  threeWorkerConfig,
} from "../test-support/cli/cli-harness.ts";
import type { Harness } from "../test-support/cli/cli-harness.ts";
import { presetArgs, writeEvalFiles } from "../test-support/cli/eval-setups.ts";
import { hubRowsPage } from "../test-support/cli/hub-rows.ts";

const TIMEOUT_MS = 120_000;

/** LiveCodeBench's encoding of a test list: base64(zlib(pickle(json.dumps(tests)))). */
function encoded(tests: unknown): string {
  const code = `import base64, json, pickle, zlib, sys\nprint(base64.b64encode(zlib.compress(pickle.dumps(json.dumps(json.loads(sys.argv[1]))))).decode())`;
  return execFileSync("python3", ["-c", code, JSON.stringify(tests)], { encoding: "utf8" }).trim();
}

const stdin = (input: string, output: string) => ({ input, output, testtype: "stdin" });
const fn = (input: string, output: string) => ({ input, output, testtype: "functional" });

function lcbRow(
  id: string,
  content: string,
  o: { starter?: string; pub: object[]; priv: object[]; func?: string },
) {
  return {
    question_title: id,
    question_content: `[${id}] ${content}`,
    platform: "leetcode",
    question_id: id,
    contest_id: "c1",
    contest_date: "2025-02-01T00:00:00",
    starter_code: o.starter ?? "",
    difficulty: "easy",
    public_test_cases: JSON.stringify(o.pub),
    private_test_cases: encoded(o.priv),
    metadata: JSON.stringify(o.func ? { func_name: o.func } : {}),
  };
}

const STARTER = "class Solution:\n    def add(self, a: int, b: int) -> int:\n        ";
// 2^53 + 1: a JavaScript number cannot hold it; the verdict must still be exact.
const BIG = "9007199254740993";

const ROWS = [
  lcbRow("stdin-right", "Print the sum of two integers.", {
    pub: [stdin("1 2\n", "3\n")],
    priv: [stdin("5 5\n", "10\n"), stdin("100 -1\n", "99.0\n")],
  }),
  lcbRow("stdin-example", "Print the sum of two integers.", {
    pub: [stdin("1 2\n", "3\n")],
    priv: [stdin("5 5\n", "10\n")],
  }),
  lcbRow("fn-right", "Add two integers.", {
    starter: STARTER,
    func: "add",
    pub: [fn("1\n2", "3")],
    priv: [fn(`${BIG}\n1`, "9007199254740994")],
  }),
  lcbRow("fn-example", "Add two integers.", {
    starter: STARTER,
    func: "add",
    pub: [fn("1\n2", "3")],
    priv: [fn("5\n5", "10")],
  }),
  lcbRow("fn-rounded", "Add two integers.", {
    starter: STARTER,
    func: "add",
    pub: [fn(`${BIG}\n0`, BIG)],
    priv: [],
  }),
];

const fence = (code: string) => `Here is my program.\n\`\`\`python\n${code}\n\`\`\``;
const ANSWERS: Record<string, string> = {
  "stdin-right": fence("a, b = map(int, input().split())\nprint(a + b)"),
  "stdin-example": fence("print(3)"),
  "fn-right": fence(`${STARTER}return a + b`),
  "fn-example": fence(`${STARTER}return 3`),
  // Wrong by one past 2^53: right only to a reader that rounds the test's integers.
  "fn-rounded": fence(`${STARTER}return a + b + 1`),
};

function reply(prompt: string) {
  const id = /\[([a-z-]+)\]/.exec(prompt)?.[1] ?? "";
  return { content: ANSWERS[id] ?? "no idea", latencyMs: 0 };
}

/** Solver A answering with each row's scripted program, the pool's config (`config` merged in) and
 * `rows` written as `name`: the files of a LiveCodeBench run. */
async function lcbSetup(
  h: Harness,
  rows: string | readonly object[],
  name: string,
  config: Record<string, unknown> = {},
) {
  h.server.setDefault("solver-a", (body) => reply(promptText({ headers: {}, body })));
  return writeEvalFiles(h, rows, { datasetName: name, config });
}

const lcbArgs = (files: { config: string; dataset: string; out: string }, ...extra: string[]) =>
  presetArgs({ ...files, preset: "livecodebench" }, ...extra);

describe("conductor-studio eval --preset", { timeout: TIMEOUT_MS }, () => {
  cliIt(
    "scores LiveCodeBench rows from a file: right programs right, ones that only reproduce the public example wrong, big integers exactly",
    async ({ expect, h }) => {
      const files = await lcbSetup(h, ROWS, "lcb.jsonl", { retry: { maxAttempts: 1 } });
      const { out } = files;
      const r = await runMain(lcbArgs(files, "--strategies", "single:Solver A"));
      expect(r.stderr).toContain("Python sandbox");
      const rows = await readEvalResults(out);
      expect(Object.fromEntries(rows.map((x) => [x.item, x.correct]))).toEqual({
        "stdin-right": true,
        "stdin-example": false,
        "fn-right": true,
        "fn-example": false,
        "fn-rounded": false,
      });
      expect(rows.find((x) => x.item === "stdin-right")?.code).toMatchObject({
        passed: 3,
        total: 3,
      });
      // The worker saw the starter code and the preset's answer format.
      const prompts = chatRequests(h.server, "solver-a").map(promptText);
      expect(prompts.find((p) => p.includes("[fn-right]"))).toContain("class Solution:");
      expect(prompts.every((p) => p.includes("```python fenced code block"))).toBe(true);
      const sidecar = JSON.parse(await readFile(`${out}.eval.json`, "utf8")) as {
        name: string;
        scorer: { id: string };
        instruction: string;
      };
      expect(sidecar.name).toBe("LiveCodeBench (lcb.jsonl)");
      expect(sidecar.scorer.id).toBe("code");
      expect(r.code, r.stderr).toBe(0);
    },
  );

  cliIt("reads only the contest-date window it is given", async ({ expect, h }) => {
    const late = { ...ROWS[0]!, question_id: "late", contest_date: "2025-06-01T00:00:00" };
    const files = await lcbSetup(h, JSON.stringify([ROWS[0], late]), "lcb.json");
    const { out } = files;
    const r = await runMain(
      lcbArgs(
        files,
        "--strategies",
        "single:Solver A",
        "--since",
        "2025-01-01",
        "--until",
        "2025-04-30",
      ),
    );
    expect(r.code, r.stderr).toBe(0);
    expect((await readEvalResults(out)).map((x) => x.item)).toEqual(["stdin-right"]);
    const bad = await runMain(lcbArgs(files, "--since", "June"));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since takes a day as YYYY-MM-DD, got "June".');
  });

  cliIt(
    "refuses a LiveCodeBench row whose private tests are a pickle of anything but a string",
    async ({ expect, h }) => {
      const hostile = execFileSync(
        "python3",
        [
          "-c",
          `import base64, os, pickle, zlib\nclass E:\n  def __reduce__(self): return (os.system, ("true",))\nprint(base64.b64encode(zlib.compress(pickle.dumps(E()))).decode())`,
        ],
        { encoding: "utf8" },
      ).trim();
      const files = await writeEvalFiles(
        h,
        JSON.stringify({ ...ROWS[0], private_test_cases: hostile }),
        { datasetName: "lcb.jsonl", config: {} },
      );
      const r = await runMain(lcbArgs(files));
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/row 1: the private tests: not a pickled string/);
      expect(h.server.requests).toHaveLength(0);
    },
  );

  it("lists the presets with their datasets, scorers and references", async ({ expect }) => {
    const r = await runMain(["eval", "--list-presets"]);
    expect(r.code).toBe(0);
    for (const id of ["livecodebench", "gpqa-diamond", "math-500"]) expect(r.stdout).toContain(id);
    expect(r.stdout).toContain("follows    LiveCodeBench lcb_runner");
    expect(r.stdout).toContain("gpqa-diamond  GPQA-Diamond  (gated: --hf-token-env)");
    const unknown = await runMain(["eval", "--config", "p.json", "--out", "o", "--preset", "gpqa"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown preset "gpqa".*gpqa-diamond/);
  });

  cliIt(
    "reads gated GPQA-Diamond from the Hub with a token that reaches the Hub and nothing else",
    async ({ expect, h, onTestFinished }) => {
      const TOKEN = "hf_canary_0123456789";
      const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
      const hub = createServer((req, res) => {
        seen.push({ path: req.url ?? "", headers: req.headers });
        const url = new URL(req.url ?? "/", "http://x");
        if (req.headers.authorization !== `Bearer ${TOKEN}`) {
          res.writeHead(401, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: "The dataset is gated." }));
        } else if (url.pathname.startsWith("/api/datasets/")) {
          res.end(JSON.stringify({ sha: "0123456789abcdef" }));
        } else {
          res.end(JSON.stringify(hubRowsPage()));
        }
      });
      await new Promise<void>((ok) => hub.listen(0, "127.0.0.1", ok));
      onTestFinished(() => void hub.close());
      const base = `http://127.0.0.1:${(hub.address() as AddressInfo).port}`;
      // The worker answers with the letter the shuffle gave the photon.
      h.server.setDefault("solver-a", (body) => {
        const text = promptText({ headers: {}, body });
        const letter = /([A-D])\) Photon/.exec(text)?.[1] ?? "Z";
        return { content: `Answer: ${letter}`, latencyMs: 0 };
      });
      const config = await h.file("pool.json", threeWorkerConfig(h.server));
      const out = `${h.dir}/gpqa.jsonl`;
      const args = presetArgs(
        { config, preset: "gpqa-diamond", out },
        "--strategies",
        "single:Solver A",
      );
      const env = { HF_ENDPOINT: base, CONDUCTOR_HF_ROWS_ENDPOINT: base, HF_TOKEN_X: TOKEN };
      const without = await runMain(args, { env });
      expect(without.code).toBe(2);
      expect(without.stderr).toContain("GPQA-Diamond is gated on the Hub");
      const r = await runMain([...args, "--hf-token-env", "HF_TOKEN_X"], { env });
      expect(r.code, r.stderr).toBe(0);
      expect((await readEvalResults(out)).map((x) => x.correct)).toEqual([true]);
      expect(seen.length).toBeGreaterThan(0);
      // The token reached the Hub, never a model endpoint, and is not in the files written.
      expect(h.server.requests.some((q) => JSON.stringify(q).includes(TOKEN))).toBe(false);
      expect(await readFile(out, "utf8")).not.toContain(TOKEN);
      expect(await readFile(`${out}.eval.json`, "utf8")).not.toContain(TOKEN);

      // Table 1 from the evaluation: the benchmark's column, the strategy's row.
      const table = await runMain(["eval-table", out]);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout.split("\n")[0]).toBe("| Strategy | GPQA-Diamond |");
      expect(table.stdout).toMatch(/^\| single:Solver A \| 100\.0 /m);
      const csv = await runMain(["eval-table", out, "--out", `${h.dir}/t1.csv`]);
      expect(csv.code, csv.stderr).toBe(0);
      expect(await readFile(`${h.dir}/t1.csv`, "utf8")).toMatch(
        /^single:Solver A,GPQA-Diamond,1,1,/m,
      );
      expect((await runMain(["eval-table", out, "--out", out])).code).toBe(2);
    },
  );
});
