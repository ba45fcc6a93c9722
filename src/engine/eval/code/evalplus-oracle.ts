/**
 * EvalPlus's test cases (HumanEval+, MBPP+) as EvalPlus builds them (evalplus/evaluate.py
 * `get_groundtruth`): the inputs are the `inputs` literal of the dataset's test program, the
 * expected values what the canonical solution returns on them. Both are computed in the sandbox
 * by trusted code, each in a pristine interpreter of its own: the test program is parsed, never
 * run (its literal is evaluated by `ast`, which runs nothing), and no answer ever shares either
 * interpreter. The result is cached per dataset revision, task and content.
 */
import { fnv1a64 } from "../dataset/hash.ts";
import type { ExactValue } from "./exact-value.ts";
import { exactValueSchema, itemsOf, numberOf, toDouble } from "./exact-value.ts";
import type { Sandbox } from "./pool.ts";
import type { EvalplusTests } from "./tests-schema.ts";
import type { RunLimits, RunOutcome } from "./sandbox-types.ts";

/** The cases of one task: arguments and expected value per case, and the float tolerance. */
export interface EvalplusOracle {
  name: string;
  atol: number;
  /** `repr` is the canonical value's Python repr, for a failure's description. */
  cases: { args: ExactValue[]; expected: ExactValue; repr: string }[];
}

export type OracleResult =
  | { ok: true; oracle: EvalplusOracle }
  | { ok: false; code?: "sandbox_failed" | "aborted"; message: string };

/**
 * The trusted reader: the `inputs = [...]` literal of a test program (top level for MBPP+,
 * inside `check` for HumanEval+), its tolerance (the last argument of `assertion(...)`, or the
 * bound of HumanEval/32's `<=`), and the function the assertion calls. Literal nodes only, plus
 * the names `inf`/`nan` that EvalPlus's repr writes (its MBPP+ programs import `inf`).
 */
const READER_PY = String.raw`
import ast, math, sys
sys.set_int_max_str_digits(0)

def _lit(n):
    if isinstance(n, ast.Constant):
        return n.value
    if isinstance(n, ast.List):
        return [_lit(e) for e in n.elts]
    if isinstance(n, ast.Tuple):
        return tuple(_lit(e) for e in n.elts)
    if isinstance(n, ast.Set):
        return {_lit(e) for e in n.elts}
    if isinstance(n, ast.Dict) and None not in n.keys:
        return {_lit(k): _lit(v) for k, v in zip(n.keys, n.values)}
    if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
        v = _lit(n.operand)
        if type(v) in (int, float, complex):
            return -v if isinstance(n.op, ast.USub) else v
    if isinstance(n, ast.Name) and n.id in ("inf", "nan"):
        return float(n.id)
    raise ValueError(f"the inputs hold something that is not a literal (line {getattr(n, 'lineno', '?')})")

def read(source):
    tree = ast.parse(source)
    inputs, atol, entry = None, 0, None
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "inputs" for t in n.targets):
            inputs = _lit(n.value)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "assertion" and n.args:
            atol = _lit(n.args[-1])
            first = n.args[0]
            if isinstance(first, ast.Call) and isinstance(first.func, ast.Name):
                entry = first.func.id
        elif isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], ast.LtE):
            left = n.left
            if isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "_poly":
                atol = _lit(n.comparators[0])
    if not isinstance(inputs, list) or not all(isinstance(i, (list, tuple)) for i in inputs):
        raise ValueError("the test program has no inputs = [[...], ...] list")
    if type(atol) not in (int, float):
        raise ValueError("the test program's tolerance is not a number")
    return (inputs, float(atol), entry)
`;

/** MBPP+ tasks whose expected value is only whether the output is not None (_special_oracle.py). */
export const MBPP_OUTPUT_NOT_NONE_TASKS = ["check_str", "text_match_three", "text_starta_endb"];

/** Trusted runs may parse a literal of megabytes and return it: their limits are wider. */
const TRUSTED: Pick<RunLimits, "outputBytes" | "timeMs"> = {
  outputBytes: 256 << 20,
  timeMs: 60_000,
};

function trouble(o: RunOutcome, what: string): string | null {
  if (o.status !== "ok") return `${what}: ${o.status}${o.error ? ` (${o.error})` : ""}`;
  if (o.notPlain !== undefined) return `${what} is not a plain value: ${o.notPlain}`;
  return null;
}

async function compute(
  sandbox: Sandbox,
  t: EvalplusTests,
  limits: RunLimits,
  signal?: AbortSignal,
): Promise<OracleResult> {
  const trusted = { ...limits, ...TRUSTED };
  // The reader's interpreter: the test program's text is data there, parsed and never run.
  const r = await sandbox.run(
    {
      mode: "function",
      code: READER_PY,
      name: "read",
      argsJson: JSON.stringify([t.test]),
      exact: true,
    },
    trusted,
    signal,
  );
  if (!r.ok) return r;
  const bad = trouble(r.outcome, "reading the test program's inputs");
  if (bad) return { ok: false, message: bad };
  const read = exactValueSchema.safeParse(r.outcome.value);
  const parts = read.success ? itemsOf(read.data) : null;
  const [inputs, atolValue, entryValue] = parts ?? [];
  const inputList = inputs === undefined ? null : itemsOf(inputs);
  const atolNum = atolValue === undefined ? null : numberOf(atolValue);
  if (!inputList || !atolNum)
    return { ok: false, message: "the test program's inputs could not be read" };
  const fromTest = typeof entryValue === "string" && entryValue !== "candidate" ? entryValue : null;
  const name = t.entryPoint ?? fromTest;
  if (!name) return { ok: false, message: "the test program names no function" };
  const notNone = t.dataset === "mbpp" && MBPP_OUTPUT_NOT_NONE_TASKS.includes(name);
  // The canonical solution's interpreter: trusted code, its own pristine one.
  const lease = await sandbox.open(signal);
  if (!lease.ok) return lease;
  const cases: EvalplusOracle["cases"] = [];
  try {
    for (const [i, input] of inputList.entries()) {
      const args = itemsOf(input) ?? [];
      const argsJson = JSON.stringify(args);
      const run = await lease.run(
        { mode: "function", code: t.solution, name, argsJson, exact: true },
        { ...limits, outputBytes: TRUSTED.outputBytes },
        signal,
      );
      if (!run.ok) return run;
      const why = trouble(run.outcome, `the canonical solution on input ${i + 1}`);
      if (why) return { ok: false, message: why };
      const value = exactValueSchema.safeParse(run.outcome.value);
      if (!value.success)
        return { ok: false, message: `the canonical solution's value ${i + 1} could not be read` };
      const expected = notNone ? value.data !== null : value.data;
      cases.push({
        args,
        expected,
        repr: notNone ? (expected ? "True" : "False") : (run.outcome.repr ?? ""),
      });
    }
  } finally {
    lease.close();
  }
  if (cases.length === 0) return { ok: false, message: "the test program's inputs are empty" };
  return { ok: true, oracle: { name, atol: toDouble(atolNum), cases } };
}

/** Expected values computed once per task and kept for the scorer's life (every strategy, repeat). */
export function createOracleCache(sandbox: Sandbox) {
  const cache = new Map<string, Promise<OracleResult>>();
  return (t: EvalplusTests, limits: RunLimits, signal?: AbortSignal): Promise<OracleResult> => {
    const key = [t.revision ?? "", t.task, fnv1a64(`${t.solution}\u0000${t.test}`)].join("|");
    const hit = cache.get(key);
    if (hit) return hit;
    const made = compute(sandbox, t, limits, signal).then((r) => {
      // A failure (a cancelled read, a sandbox that died) is not remembered.
      if (!r.ok) cache.delete(key);
      return r;
    });
    cache.set(key, made);
    return made;
  };
}
