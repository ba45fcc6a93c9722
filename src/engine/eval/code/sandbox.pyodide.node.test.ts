/**
 * The unconfined runtime (`--unconfined-code`): Pyodide in permission-restricted Node processes,
 * what the CLI ran before the Linux sandbox and still runs where there is no confinement. Its
 * Python-level guard is the browser's, so the same program finds the same dead ends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ESCAPE_OUTPUT, ESCAPE_PROGRAM } from "../../../../e2e/fixtures/code-answers.ts";
import { createNodeSandbox } from "../../../node/sandbox/process.ts";
import { DEFAULT_LIMITS } from "./sandbox-types.ts";

const sandbox = createNodeSandbox({ unconfined: true });

beforeAll(() => sandbox.warm(), 120_000);
afterAll(() => sandbox.dispose());

describe("the unconfined Pyodide runtime (Node)", { timeout: 60_000 }, () => {
  it("a program that finds Pyodide's converters still cannot run JavaScript", async () => {
    const run = await sandbox.run(
      { mode: "stdio", code: ESCAPE_PROGRAM, stdin: "" },
      DEFAULT_LIMITS,
    );
    // Pyodide's converters can be found that way; what they make leads no further.
    expect(run.ok && run.outcome.stdout).toBe(ESCAPE_OUTPUT);
  });

  it("counts a returned value against the output limit, and keeps every digit of an int", async () => {
    const big = await sandbox.run(
      { mode: "function", code: "def f():\n    return 'x' * 3_000_000", name: "f", argsJson: "[]" },
      DEFAULT_LIMITS,
    );
    expect(big.ok && big.outcome.status).toBe("output_limit");
    const exact = await sandbox.run(
      {
        mode: "function",
        code: "def f(n):\n    return n + 1",
        name: "f",
        argsJson: "[9007199254740993]",
      },
      DEFAULT_LIMITS,
    );
    expect(exact.ok && exact.outcome.value).toEqual({ int: "9007199254740994" });
  });
});
