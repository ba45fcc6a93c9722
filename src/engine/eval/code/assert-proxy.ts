/**
 * Assert-style tests (plain HumanEval's `check(candidate)`, MBPP's `assert` lines) without any
 * assert beside the answer: the test program runs in a pristine interpreter of its own (trusted
 * code), where `candidate` (and the function's name) is a proxy. A call of the proxy stops the
 * test program and names its arguments; the engine runs that call in the answer's interpreter
 * (an `exact` function run) and re-runs the test program from the start with every answer so
 * far, which the proxy returns as exact-type values. The test program is re-run with
 * `random.seed(0)`, so that its calls repeat; one that calls differently on a re-run is refused.
 */
import { ErrorCode } from "../../errors.ts";
import { z } from "zod";
import type { Sandbox } from "./pool.ts";
import type { ScoreResult } from "./sandbox-types.ts";
import type { RunLimits } from "./sandbox-types.ts";
import { cut, VERDICT_TEXT } from "./verdict.ts";

/** The most calls one test program may make of the answer. */
const MAX_CALLS = 500;

const DRIVER_PY = String.raw`
import json, math, random, sys
sys.set_int_max_str_digits(0)

class _Need(BaseException):
    pass

class _Refused(BaseException):
    pass

def _enc(v):
    t = type(v)
    if v is None or t is bool or t is str:
        return v
    if t is int:
        return {"int": str(v)}
    if t is float:
        return {"float": v if math.isfinite(v) else repr(v)}
    if t is list:
        return [_enc(x) for x in v]
    if t is tuple:
        return {"tuple": [_enc(x) for x in v]}
    if t is set or t is frozenset:
        return {"set": [_enc(x) for x in v]}
    if t is dict:
        return {"dict": [[k if type(k) is str else _enc(k), _enc(x)] for k, x in v.items()]}
    raise _Refused(f"an argument of type {t.__name__} cannot be passed as a plain value")

def _dec(v):
    t = type(v)
    if v is None or t is bool or t is str:
        return v
    if t is list:
        return [_dec(x) for x in v]
    ((tag, x),) = v.items()
    if tag == "int":
        return int(x)
    if tag == "float":
        return float(x)
    if tag == "tuple":
        return tuple(_dec(y) for y in x)
    if tag == "set":
        return {_dec(y) for y in x}
    return {(k if type(k) is str else _dec(k)): _dec(y) for k, y in x}

def _last(e):
    import traceback
    return "".join(traceback.format_exception_only(type(e), e)).strip().splitlines()[-1]

def drive(program, name, answers):
    random.seed(0)
    state = {"calls": 0, "need": None}

    def candidate(*args, **kwargs):
        if kwargs:
            raise _Refused("the test calls the function with keyword arguments")
        enc = json.dumps([_enc(a) for a in args])
        i = state["calls"]
        state["calls"] += 1
        if i < len(answers):
            asked, got = answers[i]
            if asked != enc:
                raise _Refused("the test program calls the function differently when re-run")
            if "value" in got:
                return _dec(got["value"])
            raise RuntimeError(got["error"])
        state["need"] = state["need"] or enc
        raise _Need()

    ns = {"__name__": "__test__", "math": math, name: candidate, "candidate": candidate}
    try:
        exec(compile(program, "<test>", "exec"), ns)
        verdict = {"pass": True}
    except _Refused as e:
        return json.dumps({"refused": str(e)})
    except _Need:
        verdict = {}
    except BaseException as e:
        verdict = {"fail": _last(e)}
    # A bare except in the test cannot hide a call still to be made.
    if state["need"] is not None:
        return json.dumps({"need": state["need"]})
    return json.dumps(verdict)
`;

const DriverSchema = z.union([
  z.object({ need: z.string() }),
  z.object({ refused: z.string() }),
  z.object({ fail: z.string() }),
  z.object({ pass: z.literal(true) }),
]);

type Answer = [string, { value: unknown } | { error: string }];

/**
 * Scores `code` against an assert-style test program: `name` is the function the program tests
 * (bound to the proxy, as is `candidate`). Correct when the program finishes without an error.
 */
export async function scoreWithProxy(
  o: { sandbox: Sandbox; code: string; name: string; program: string; limits: RunLimits },
  signal?: AbortSignal,
): Promise<ScoreResult> {
  const unscored = (reason: string): ScoreResult => ({
    correct: null,
    score: 0,
    extracted: o.code,
    reason,
  });
  const wrong = (reason: string, calls: number): ScoreResult => ({
    correct: false,
    score: 0,
    extracted: o.code,
    reason,
    details: { calls },
  });
  const tester = await o.sandbox.open(signal);
  if (!tester.ok) return unscored(tester.code === ErrorCode.aborted ? "cancelled" : tester.message);
  const answer = await o.sandbox.open(signal);
  if (!answer.ok) {
    tester.close();
    return unscored(answer.code === ErrorCode.aborted ? "cancelled" : answer.message);
  }
  const answers: Answer[] = [];
  try {
    for (;;) {
      const argsJson = JSON.stringify([o.program, o.name, answers]);
      const t = await tester.run(
        { mode: "function", code: DRIVER_PY, name: "drive", argsJson },
        { ...o.limits, outputBytes: 64 << 20 },
        signal,
      );
      if (!t.ok) return unscored(t.code === ErrorCode.aborted ? "cancelled" : t.message);
      if (t.outcome.status !== "ok" || typeof t.outcome.value !== "string")
        return unscored(
          `the test program's interpreter: ${t.outcome.status} ${t.outcome.error ?? ""}`,
        );
      const step = DriverSchema.safeParse(JSON.parse(t.outcome.value));
      if (!step.success) return unscored("the test program's driver answered nonsense");
      const s = step.data;
      if ("pass" in s)
        return { correct: true, score: 1, extracted: o.code, details: { calls: answers.length } };
      if ("fail" in s) return wrong(`the test failed: ${cut(s.fail)}`, answers.length);
      if ("refused" in s) return unscored(`not scorable by the assert proxy: ${s.refused}`);
      if (answers.length >= MAX_CALLS)
        return unscored(`the test program calls the function more than ${MAX_CALLS} times`);
      const r = await answer.run(
        { mode: "function", code: o.code, name: o.name, argsJson: s.need, exact: true },
        o.limits,
        signal,
      );
      if (!r.ok) return unscored(r.code === ErrorCode.aborted ? "cancelled" : r.message);
      const out = r.outcome;
      if (out.status === "runtime_error") answers.push([s.need, { error: out.error ?? "error" }]);
      else if (out.status !== "ok")
        return wrong(`${VERDICT_TEXT[out.status]} on call ${answers.length + 1}`, answers.length);
      else if (out.notPlain !== undefined)
        answers.push([s.need, { error: `the function returned ${out.notPlain}` }]);
      else answers.push([s.need, { value: out.value }]);
    }
  } finally {
    tester.close();
    answer.close();
  }
}
