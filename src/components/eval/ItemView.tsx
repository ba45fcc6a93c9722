import { useEffect, useRef, useState } from "react";
import { formatCost } from "../../engine/cost.ts";
import type { EvalResult } from "../../engine/eval/schema.ts";
import { latestResults } from "../../engine/eval/schema.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import { evalStore } from "../../state/eval/evalStore.ts";
import { useStudio } from "../../state/slices/store.ts";
import { ItemRun } from "./ItemRun.tsx";
import { choiceLabel } from "./StrategyOptions.tsx";

/**
 * A result's standing in words, with the class its cell has in the matrix, and why, said by whom
 * gave it: an errored item has no verdict at all (its call failed before any scorer saw it), so
 * its reason is the error, never worded as the scorer's.
 */
export function verdictOf(r: EvalResult): {
  text: string;
  tone: string;
  why: string | null;
} {
  if (r.error)
    return {
      text: "Errored: a call failed, so no scorer judged it (not a wrong answer; Resume runs it again)",
      tone: "error",
      why: `the error: ${r.error.message}`,
    };
  const scorer = r.reason ? `the scorer: ${r.reason}` : null;
  if (r.correct === null) return { text: "Unscored", tone: "unscored", why: scorer };
  return { text: r.correct ? "Right" : "Wrong", tone: r.correct ? "right" : "wrong", why: scorer };
}

/** The stored run of one result; null while it loads, a message when it is not stored. */
function useRecord(evalId: string | undefined, runId: string | undefined) {
  const [got, setGot] = useState<{ runId: string; record: RunRecord | null } | null>(null);
  useEffect(() => {
    if (!evalId || !runId) return;
    let live = true;
    void evalStore()
      .loadRecord(evalId, runId)
      .then((record) => live && setGot({ runId, record }));
    return () => {
      live = false;
    };
  }, [evalId, runId]);
  return got?.runId === runId ? got : null;
}

/**
 * One matrix cell opened in place of the report: the question, the reference, the extracted
 * answer and the verdict beside that item's run, and Back to the report (Esc too). Nothing in the
 * studio changes: the user's question and workflow stay as they were.
 */
export function ItemView({ item, strategy }: { item: string; strategy: string }) {
  const evaluation = useStudio((s) => s.evaluation);
  const results = useStudio((s) => s.evalResults);
  const questions = useStudio((s) => s.evalQuestions);
  const close = () => {
    useStudio.getState().patchEval({ evalOpenItem: null });
    // Back where the user was: on the cell that opened this item.
    requestAnimationFrame(() =>
      document
        .querySelector<HTMLElement>(`[data-testid="${CSS.escape(`cell-${item}-${strategy}`)}"]`)
        ?.focus(),
    );
  };
  const samples = latestResults(results)
    .filter((r) => r.item === item && r.strategy === strategy)
    .sort((a, b) => a.repeat - b.repeat);
  const [pick, setPick] = useState(0);
  const r = samples[Math.min(pick, samples.length - 1)];
  const got = useRecord(evaluation?.id, r?.runId);
  const back = useRef<HTMLButtonElement>(null);
  useEffect(() => back.current?.focus(), []);
  const question = questions.find((q) => q.id === item);
  const verdict = r && verdictOf(r);
  return (
    <section
      className="eval-card eval-item"
      aria-label={`Question ${item} with ${choiceLabel(strategy)}`}
      data-testid="eval-item"
      data-own-escape
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.stopPropagation();
        close();
      }}
    >
      <div className="row">
        <button type="button" ref={back} data-testid="eval-item-back" onClick={close}>
          ← Back to the report
        </button>
        <h3>
          Question {item} · {choiceLabel(strategy)}
        </h3>
        {samples.length > 1 && (
          <div className="row" role="group" aria-label="Repeat">
            {samples.map((s, i) => (
              <button
                key={s.repeat}
                type="button"
                aria-pressed={s === r}
                data-testid={`eval-item-repeat-${s.repeat}`}
                onClick={() => setPick(i)}
              >
                Repeat {s.repeat + 1}
              </button>
            ))}
          </div>
        )}
      </div>
      <div className="eval-item-columns">
        <dl className="eval-item-facts">
          <dt>Question</dt>
          <dd data-testid="eval-item-question">
            <pre>{question?.question ?? got?.record?.question ?? "(not stored)"}</pre>
          </dd>
          {question?.choices && (
            <>
              <dt>Choices</dt>
              <dd>
                <ol type="A">
                  {question.choices.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ol>
              </dd>
            </>
          )}
          <dt>Reference</dt>
          <dd data-testid="eval-item-reference">{r?.expected ?? question?.expected ?? "none"}</dd>
          <dt>Extracted answer</dt>
          <dd data-testid="eval-item-extracted">{r?.extracted ?? "none found"}</dd>
          <dt>Verdict</dt>
          <dd data-testid="eval-item-verdict" data-tone={verdict?.tone}>
            <span className={`verdict verdict-${verdict?.tone ?? "pending"}`}>
              {verdict?.text ?? "Not run yet."}
            </span>
            {verdict?.why && (
              <span className="muted" data-testid="eval-item-why">
                {" "}
                ({verdict.why})
              </span>
            )}
          </dd>
          {r && (
            <>
              <dt>Spent</dt>
              <dd>
                {formatCost(r.cost)} · {r.tokens} tokens · {r.calls} call(s) ·{" "}
                {(r.latencyMs / 1000).toFixed(1)} s
              </dd>
            </>
          )}
        </dl>
        <div className="eval-item-run">
          <h4>The run</h4>
          {!r ? (
            <p className="muted">This question has not run with {choiceLabel(strategy)} yet.</p>
          ) : !got ? (
            <p className="muted" role="status">
              Loading the run…
            </p>
          ) : got.record ? (
            <ItemRun record={got.record} />
          ) : (
            <p className="problem">That run is not stored.</p>
          )}
        </div>
      </div>
    </section>
  );
}
