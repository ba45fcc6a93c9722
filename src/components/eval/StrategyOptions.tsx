import { useMemo } from "react";
import type { StrategyExplanation } from "../../engine/eval/strategy-explain.ts";
import { callsText, explainStrategy } from "../../engine/eval/strategy-explain.ts";
import { scorerKind } from "../../engine/eval/scorers/kinds.ts";
import { mappedItems, strategyChoices, strategyOfChoice } from "../../state/eval/evalController.ts";
import { useStudio } from "../../state/slices/store.ts";

/** A strategy's name as the form shows it. */
export const choiceLabel = (name: string) => (name === "workflow" ? "this workflow" : name);

/** What each choice does on the pool and settings as they are now (or why it cannot run). */
function useExplanations(): [string, StrategyExplanation | string][] {
  const pool = useStudio((s) => s.pool);
  const conductor = useStudio((s) => s.conductor);
  const maxSteps = useStudio((s) => s.maxSteps);
  const doc = useStudio((s) => s.history.present);
  return useMemo(
    () =>
      strategyChoices().map((name) => {
        const strategy = strategyOfChoice(name);
        return [name, typeof strategy === "string" ? strategy : explainStrategy(strategy, pool)];
      }),
    // strategyChoices and strategyOfChoice read these from the store.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [pool, conductor, maxSteps, doc],
  );
}

/** The calls the chosen strategies make on the questions loaded, the judge's included. */
function CallsTotal({ explained }: { explained: [string, StrategyExplanation | string][] }) {
  const setup = useStudio((s) => s.evalSetup);
  const questions = useMemo(
    () => (setup.table ? mappedItems().items.length : 0),
    // mappedItems reads the table and mapping from the store.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [setup.table, setup.mapping],
  );
  const chosen = explained.filter(([name]) => setup.strategies.includes(name));
  const ok = chosen.flatMap(([, e]) => (typeof e === "string" ? [] : [e]));
  if (ok.length === 0 || questions === 0) return null;
  const judge = scorerKind(setup.scorer).needsJudge ? 1 : 0;
  const times = questions * setup.repeats;
  const min = ok.reduce((t, e) => t + e.calls.min + judge, 0) * times;
  const max = ok.reduce((t, e) => t + e.calls.max + judge, 0) * times;
  return (
    <p className="muted" data-testid="eval-calls-total">
      {questions} question(s) × {setup.repeats} repeat(s) × {ok.length} strateg
      {ok.length === 1 ? "y" : "ies"}:{" "}
      {min === max ? `${min} model calls` : `${min}–${max} model calls`}
      {judge ? ", one judge call per answer included" : ""}.
    </p>
  );
}

/** The strategy checkboxes, each with who it calls and how many calls a question costs. */
export function StrategyOptions() {
  const chosen = useStudio((s) => s.evalSetup.strategies);
  const patchSetup = useStudio((s) => s.patchEvalSetup);
  const explained = useExplanations();
  const toggle = (name: string) =>
    patchSetup({
      strategies: chosen.includes(name) ? chosen.filter((n) => n !== name) : [...chosen, name],
    });
  return (
    <>
      <ul className="strategy-options" aria-label="Strategies to compare">
        {explained.map(([name, e], i) => {
          const id = `strategy-about-${i}`;
          const problem = typeof e === "string";
          return (
            <li key={name} data-testid={`strategy-option-${name}`}>
              <label>
                <input
                  type="checkbox"
                  data-testid={`strategy-${name}`}
                  checked={chosen.includes(name)}
                  aria-describedby={id}
                  onChange={() => toggle(name)}
                />
                <span className="strategy-name">{choiceLabel(name)}</span>
                {!problem && (
                  <span className="strategy-calls" data-testid={`strategy-calls-${name}`}>
                    {callsText(e.calls)}
                  </span>
                )}
              </label>
              <p
                id={id}
                className={problem ? "problem" : "muted"}
                data-testid={`strategy-about-${name}`}
              >
                {problem ? e : e.text}
              </p>
            </li>
          );
        })}
      </ul>
      <CallsTotal explained={explained} />
    </>
  );
}
