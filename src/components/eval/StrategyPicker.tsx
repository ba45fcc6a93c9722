import { DEFAULT_RUBRIC } from "../../engine/eval/scorers/judge.ts";
import type { MathProfile } from "../../engine/eval/scorers/math-profiles.ts";
import { MathProfileSchema } from "../../engine/eval/scorers/math-profiles.ts";
import { scorerKind } from "../../engine/eval/scorers/kinds.ts";
import { scorerIds } from "../../engine/eval/scorers/registry.ts";
import { startEvaluation } from "../../state/eval/evalController.ts";
import { useStudio } from "../../state/slices/store.ts";
import { parseMoney, userLocale } from "../../state/run/money.ts";
import { CacheControl } from "./CacheControl.tsx";
import { runBlocker } from "./runBlocker.ts";
import { StrategyOptions } from "./StrategyOptions.tsx";

/** The math grader profiles as the Evaluate screen names them. */
const PROFILE_LABELS: Record<MathProfile, string> = {
  default: "default (most accurate)",
  "math-verify": "Math-Verify (open-r1, lighteval)",
  "qwen-math": "Qwen2.5-Math math_equal",
  minerva: "Minerva (exact match)",
  strict: "strict",
};

/** The judge's rubric, editable; empty means the default rubric (shown as the placeholder). */
function JudgeRubric() {
  const rubric = useStudio((s) => s.evalSetup.rubric);
  const patchSetup = useStudio((s) => s.patchEvalSetup);
  return (
    <label className="eval-rubric">
      Rubric
      <textarea
        data-testid="eval-judge-rubric"
        rows={3}
        value={rubric}
        placeholder={DEFAULT_RUBRIC}
        onChange={(e) => patchSetup({ rubric: e.target.value })}
      />
    </label>
  );
}

/** Which strategies (the columns), the scorer, repeats, concurrency and spending cap; then Run. */
export function StrategyPicker() {
  const setup = useStudio((s) => s.evalSetup);
  const patchSetup = useStudio((s) => s.patchEvalSetup);
  const message = useStudio((s) => s.evalMessage);
  const pool = useStudio((s) => s.pool);
  const cap = parseMoney(setup.maxCost, userLocale());
  const capProblem = cap.ok ? null : cap.message;
  // "" is automatic, which may pick math: the grader is offered then too.
  const { takesProfile, needsJudge } = scorerKind(setup.scorer);
  const blocker = runBlocker(!!setup.table, pool.length, setup.strategies.length, capProblem);
  return (
    <section className="eval-card eval-strategies" aria-label="Strategies">
      <h3>3. Strategies</h3>
      <StrategyOptions />
      <div className="row wrap">
        <label>
          Scorer
          <select
            data-testid="eval-scorer"
            value={setup.scorer}
            onChange={(e) => patchSetup({ scorer: e.target.value })}
          >
            <option value="">(automatic)</option>
            {scorerIds().map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        {(takesProfile || setup.scorer === "") && (
          <label title="Which reference grader's conventions math answers are scored by (docs/evaluate.md: Graders)">
            Grader
            <select
              data-testid="eval-profile"
              value={setup.profile}
              onChange={(e) => patchSetup({ profile: e.target.value })}
            >
              {MathProfileSchema.options.map((p) => (
                <option key={p} value={p === "default" ? "" : p}>
                  {PROFILE_LABELS[p]}
                </option>
              ))}
            </select>
          </label>
        )}
        {needsJudge && (
          <label>
            Judge
            <select value={setup.judge} onChange={(e) => patchSetup({ judge: e.target.value })}>
              <option value="">(choose)</option>
              {pool.map((w) => (
                <option key={w.id}>{w.name}</option>
              ))}
            </select>
          </label>
        )}
        {needsJudge && <JudgeRubric />}
        <CountField
          label="Repeats"
          max={20}
          value={setup.repeats}
          onChange={(repeats) => patchSetup({ repeats })}
        />
        <CountField
          label="Concurrency per endpoint"
          max={32}
          value={setup.concurrency}
          onChange={(concurrency) => patchSetup({ concurrency })}
        />
        <label>
          Spending cap ($)
          <input
            data-testid="eval-max-cost"
            inputMode="decimal"
            placeholder="none"
            aria-invalid={capProblem !== null}
            aria-describedby={capProblem ? "eval-max-cost-problem" : undefined}
            value={setup.maxCost}
            onChange={(e) => patchSetup({ maxCost: e.target.value })}
          />
        </label>
      </div>
      <CacheControl />
      {capProblem && (
        <p className="problem" id="eval-max-cost-problem" data-testid="eval-max-cost-problem">
          {capProblem}
        </p>
      )}
      {message && (
        <p className="problem" role="alert">
          {message}
        </p>
      )}
      <div className="row wrap eval-run-row">
        <button
          type="button"
          className="primary"
          data-testid="eval-start"
          disabled={blocker !== null}
          aria-describedby={blocker ? "eval-start-why" : undefined}
          onClick={() => void startEvaluation()}
        >
          Run evaluation
        </button>
        {blocker && (
          <span className="muted" id="eval-start-why" data-testid="eval-start-why">
            {blocker.text}
          </span>
        )}
        {blocker?.settings && (
          <button
            type="button"
            data-testid="eval-open-settings"
            onClick={() => useStudio.getState().openSettings()}
          >
            Open Settings
          </button>
        )}
      </div>
    </section>
  );
}

/** A count of at least 1: anything else typed reads as 1. */
function CountField({
  label,
  max,
  value,
  onChange,
}: {
  label: string;
  max: number;
  value: number;
  onChange: (count: number) => void;
}) {
  return (
    <label>
      {label}
      <input
        type="number"
        min={1}
        max={max}
        value={value}
        onChange={(e) => onChange(Math.max(1, Number(e.target.value) || 1))}
      />
    </label>
  );
}
