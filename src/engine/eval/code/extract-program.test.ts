import { describe, expect, it } from "vitest";
import { extractProgram } from "./extract-program.ts";
import { normaliseOutput, parseCodeTests } from "./tests-schema.ts";

const code = (answer: string) => {
  const r = extractProgram(answer);
  return r.ok ? r.code : null;
};

describe("extractProgram", () => {
  it("takes the last Python block, without fences or prose", () => {
    const answer = [
      "First attempt:",
      "```python",
      "print(1)",
      "```",
      "Better:",
      "```py",
      "print(2)",
      "```",
      "Output:",
      "```text",
      "2",
      "```",
      "Done.",
    ].join("\n");
    expect(code(answer)).toBe("print(2)");
    expect(extractProgram(answer)).toMatchObject({ fenced: true });
  });

  it("accepts untagged and tilde fences, longer fences and indented blocks", () => {
    expect(code("~~~\nx = 1\nprint(x)\n~~~")).toBe("x = 1\nprint(x)");
    expect(code("````python\nprint('```')\n````")).toBe("print('```')");
    expect(code("1. Code:\n   ```python\n   def f():\n       return 1\n   ```")).toBe(
      "def f():\n    return 1",
    );
  });

  it("prefers the <answer> tag's block, and falls back to the whole answer", () => {
    const answer =
      "```python\nprint('draft')\n```\n<answer>\n```python\nprint('final')\n```\n</answer>";
    expect(code(answer)).toBe("print('final')");
    expect(code("<answer>see above</answer>\n```python\nprint(3)\n```")).toBe("print(3)");
    expect(code("<answer>\nn = int(input())\nprint(n * 2)\n</answer>")).toBe(
      "n = int(input())\nprint(n * 2)",
    );
  });

  it("keeps a block left open by a truncated answer", () => {
    expect(code("Here:\n```python\nfor i in range(3):\n    print(i)")).toBe(
      "for i in range(3):\n    print(i)",
    );
  });

  it("accepts unfenced text only when it looks like a program", () => {
    expect(extractProgram("import sys\nprint(sys.stdin.read())")).toEqual({
      ok: true,
      code: "import sys\nprint(sys.stdin.read())",
      fenced: false,
    });
    expect(code("def add(a, b):\n    return a + b")).toBe("def add(a, b):\n    return a + b");
    for (const prose of [
      "The answer is 3.",
      "",
      "Use a loop: iterate and sum.",
      "```cpp\nint main() {}\n```",
    ])
      expect(extractProgram(prose)).toEqual({ ok: false, reason: "no code found" });
  });
});

describe("the tests column", () => {
  it("reads both styles from JSON text or values", () => {
    const stdio = parseCodeTests('{"style":"stdio","cases":[{"input":"1 2\\n","output":"3\\n"}]}');
    expect(stdio).toEqual({
      ok: true,
      tests: { style: "stdio", cases: [{ input: "1 2\n", output: "3\n" }] },
    });
    const fn = parseCodeTests({
      style: "function",
      name: "add",
      cases: [{ args: [1, 2], expected: 3 }],
    });
    expect(fn.ok && fn.tests.style).toBe("function");
    expect(parseCodeTests({ style: "stdio", cases: [{ output: "x" }] })).toMatchObject({
      ok: true,
      tests: { cases: [{ input: "", output: "x" }] },
    });
  });

  it("explains what is wrong instead of throwing", () => {
    expect(parseCodeTests(undefined)).toEqual({
      ok: false,
      code: "invalid_dataset",
      message: "the item has no tests",
    });
    expect(parseCodeTests("{oops")).toEqual({
      ok: false,
      code: "invalid_dataset",
      message: "the tests column is not valid JSON",
    });
    expect(parseCodeTests({ style: "stdio", cases: [] })).toMatchObject({ ok: false });
    const badName = parseCodeTests({
      style: "function",
      name: "1x",
      cases: [{ args: [], expected: 1 }],
    });
    expect(badName.ok === false && badName.message).toMatch(/^invalid tests at name/);
  });

  it("compares stdout with trailing whitespace cut per line", () => {
    expect(normaliseOutput("3  \r\n4\t\n\n")).toBe(normaliseOutput("3\n4"));
    expect(normaliseOutput(" 3")).not.toBe(normaliseOutput("3"));
    expect(normaliseOutput("3\n\n4")).not.toBe(normaliseOutput("3\n4"));
  });
});
