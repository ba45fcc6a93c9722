// LiveCodeBench rows read as its loader reads them. The encoded private tests are made by Python's
// own base64, zlib and pickle (python3 is on every machine this project runs on), not by hand.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseCodeTests } from "../code/tests-schema.ts";
import { decodeLcbTests, inWindow, livecodebenchRow } from "./livecodebench.ts";
import { readPickledString } from "./pickle-string.ts";

/** Runs a Python expression printing one line, and returns it. */
const py = (code: string): string =>
  execFileSync("python3", ["-c", `import base64, json, pickle, zlib\n${code}`], {
    encoding: "utf8",
  }).trim();

/** LiveCodeBench's encoding of a test list: base64(zlib(pickle(json.dumps(tests)))). */
const encode = (tests: unknown, protocol = 4): string =>
  py(
    `print(base64.b64encode(zlib.compress(pickle.dumps(json.dumps(json.loads(${JSON.stringify(
      JSON.stringify(tests),
    )})), protocol=${protocol}))).decode())`,
  );

const stdinTests = [
  { input: "5 5\n", output: "10\n", testtype: "stdin" },
  { input: "2 2\n", output: "4\n", testtype: "stdin" },
];

describe("LiveCodeBench's private tests", () => {
  it.each([2, 3, 4, 5])(
    "decodes base64, zlib and a pickled JSON string (protocol %i)",
    async (p) => {
      const decoded = await decodeLcbTests(encode(stdinTests, p), "the private tests");
      expect(decoded).toEqual({ ok: true, value: stdinTests });
    },
  );

  it("reads plain JSON first, as the loader tries json.loads before the decoding", async () => {
    expect(await decodeLcbTests(JSON.stringify(stdinTests), "t")).toEqual({
      ok: true,
      value: stdinTests,
    });
  });

  it("decodes a string past 64 KiB (BINUNICODE, framed) and non-ASCII text", async () => {
    const big = [{ input: `${"7 ".repeat(40_000)}\n`, output: "é ✓\n", testtype: "stdin" }];
    expect(await decodeLcbTests(encode(big, 5), "t")).toEqual({ ok: true, value: big });
  });

  it("refuses a pickle that is anything but a string, naming the opcode, and runs nothing", async () => {
    // The classic attack: a pickle whose REDUCE calls os.system. It must be refused unread.
    const hostile = py(
      `import os\nclass E:\n  def __reduce__(self): return (os.system, ("touch /tmp/lcb-pwned",))\nprint(base64.b64encode(zlib.compress(pickle.dumps(E(), protocol=4))).decode())`,
    );
    const r = await decodeLcbTests(hostile, "the private tests");
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.message).toMatch(
        /^the private tests: not a pickled string: (opcode 0x|a second value)/,
      );
    const list = py(`print(base64.b64encode(zlib.compress(pickle.dumps([1, 2]))).decode())`);
    const r2 = await decodeLcbTests(list, "t");
    expect(r2.ok).toBe(false);
  });

  it("refuses text that is neither JSON nor base64 zlib, with the reason", async () => {
    expect(await decodeLcbTests("%%%", "t")).toEqual({
      ok: false,
      code: "invalid_dataset",
      message: "t are neither JSON nor base64",
    });
    expect(await decodeLcbTests(btoa("not zlib"), "t")).toEqual({
      ok: false,
      code: "invalid_dataset",
      message: "t are base64 but not zlib data",
    });
  });

  it("reads only whole pickles: a truncated one or bytes after STOP are refused", () => {
    const bytes = (hex: string) => Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16)));
    // PROTO 4, SHORT_BINUNICODE "hi", MEMOIZE, STOP
    expect(readPickledString(bytes("80048c0268699 42e".replace(" ", "")))).toEqual({
      ok: true,
      value: "hi",
    });
    expect(readPickledString(bytes("80048c05686994")).ok).toBe(false);
    expect(readPickledString(bytes("80048c026869942e2e")).ok).toBe(false);
    expect(readPickledString(bytes("80068c0268692e")).ok).toBe(false);
  });
});

const row = (values: Record<string, unknown>) => ({ line: 3, values });

describe("LiveCodeBench rows", () => {
  it("poses a stdin problem with public and private tests, compared as LiveCodeBench compares", async () => {
    const r = await livecodebenchRow(
      row({
        question_id: "abc001_a",
        question_content: "Read two integers and print their sum.",
        starter_code: "",
        public_test_cases: JSON.stringify([{ input: "1 2\n", output: "3\n", testtype: "stdin" }]),
        private_test_cases: encode(stdinTests),
        metadata: "{}",
      }),
    );
    if (!r.ok) throw new Error(r.message);
    expect(r.value.values.question).toMatch(/^Read two integers.*\n\nRead the input from stdin/s);
    const tests = parseCodeTests(r.value.values.tests);
    expect(tests).toMatchObject({
      ok: true,
      tests: { style: "stdio", compare: "livecodebench" },
    });
    if (tests.ok && tests.tests.style === "stdio") expect(tests.tests.cases).toHaveLength(3);
  });

  it("calls Solution().func_name with one JSON value per line, keeping big integers as written", async () => {
    const r = await livecodebenchRow(
      row({
        question_id: "lc1",
        question_content: "Add two numbers.",
        starter_code: "class Solution:\n    def add(self, a: int, b: int) -> int:\n        ",
        public_test_cases: JSON.stringify([
          { input: "9007199254740993\n1", output: "9007199254740994", testtype: "functional" },
        ]),
        private_test_cases: encode([
          { input: "[1, 2]\n3", output: "[4, 5]", testtype: "functional" },
        ]),
        metadata: JSON.stringify({ func_name: "add" }),
      }),
    );
    if (!r.ok) throw new Error(r.message);
    expect(r.value.values.question).toContain("class Solution:");
    // The raw text keeps 2^53 + 1 and + 2 exact for a lossless reader of the tests.
    expect(r.value.values.tests).toBe(
      '{"style":"function","name":"Solution.add","cases":[{"args":[9007199254740993,1],"expected":9007199254740994},{"args":[[1, 2],3],"expected":[4, 5]}]}',
    );
  });

  it("names why a row cannot be read: no func_name, mixed styles, a bad argument line", async () => {
    const base = { question_content: "Q", starter_code: "def f(x):\n  ", private_test_cases: "" };
    const fn = (input: string) => JSON.stringify([{ input, output: "1", testtype: "functional" }]);
    expect(
      await livecodebenchRow(row({ ...base, public_test_cases: fn("1"), metadata: "{}" })),
    ).toEqual({
      ok: false,
      code: "invalid_dataset",
      message: "functional tests but no metadata.func_name",
    });
    const meta = JSON.stringify({ func_name: "f" });
    expect(
      await livecodebenchRow(row({ ...base, public_test_cases: fn("{oops"), metadata: meta })),
    ).toEqual({
      ok: false,
      code: "invalid_dataset",
      message: "functional test 1 is not one JSON value per line",
    });
    const mixed = JSON.stringify([
      { input: "1", output: "1", testtype: "functional" },
      { input: "1", output: "1", testtype: "stdin" },
    ]);
    expect(
      await livecodebenchRow(row({ ...base, public_test_cases: mixed, metadata: meta })),
    ).toEqual({
      ok: false,
      code: "invalid_dataset",
      message: "the row mixes stdin and functional tests",
    });
    const ok = await livecodebenchRow(row({ ...base, public_test_cases: fn("2"), metadata: meta }));
    expect(ok.ok && ok.value.values.tests).toContain('"name":"f"');
  });

  it("selects a contest-date window as LiveCodeBench's runner does (inclusive days)", () => {
    const at = (d: string) => row({ contest_date: d });
    const w = { since: "2025-01-01", until: "2025-04-30" };
    expect(inWindow(at("2025-01-01T00:00:00"), w)).toBe(true);
    expect(inWindow(at("2025-04-30T23:00:00"), w)).toBe(true);
    expect(inWindow(at("2024-12-31T00:00:00"), w)).toBe(false);
    expect(inWindow(at("2025-05-01T00:00:00"), w)).toBe(false);
    expect(inWindow(at(""), w)).toBe(false);
    expect(inWindow(at(""), {})).toBe(true);
  });
});
