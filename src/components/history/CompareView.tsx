import { useEffect, useState } from "react";
import { formatTotalCost } from "../../engine/cost.ts";
import type { CompareTotals, Comparison, DiffPart } from "../../engine/run/compare.ts";
import { compareRuns } from "../../engine/run/compare.ts";
import type { Totals } from "../../engine/schema/record.ts";
import type { RunMeta } from "../../engine/store/db-schema.ts";
import { runStore } from "../../state/storage/runStore.ts";
import { useStudio } from "../../state/slices/store.ts";
import { CLOSING_BACKDROP, Modal } from "../ui/Modal.tsx";
import { formatCost, formatDuration } from "./format.ts";
import "./history.css";

function Diff({
  parts,
  show,
  testId,
}: {
  parts: DiffPart[];
  show: "removed" | "added";
  testId?: string;
}) {
  return (
    <span className="diff" data-testid={testId}>
      {parts.map((p, i) =>
        p.op === "same" ? (
          <span key={i}>{p.text}</span>
        ) : p.op === show ? (
          <mark key={i} className={`diff-${p.op}`} data-testid={`diff-${p.op}`}>
            {p.text}
          </mark>
        ) : null,
      )}
    </span>
  );
}

const num = (n: number | null) => (n === null ? "–" : n.toLocaleString());
const signed = (d: number, f: (n: number) => string) =>
  d === 0 ? "same" : `${d > 0 ? "+" : "−"}${f(Math.abs(d))}`;
const tokens = (t: Totals) => (t.promptTokens + t.completionTokens).toLocaleString();

/**
 * One run's totals: the whole run (kept parts included), and for a continued run also its own
 * calls, so the reader sees which totals the difference compares.
 */
function SideTotals({ t, testId }: { t: CompareTotals; testId: string }) {
  return (
    <div data-testid={testId}>
      Whole run: {tokens(t.whole)} tokens · {t.whole.calls} calls · {formatTotalCost(t.whole)} ·
      planning {formatDuration(t.planningMs)} · running {formatDuration(t.executionMs)}
      {t.keptParts > 0 && (
        <div className="muted" data-testid={`${testId}-own`}>
          It continued an earlier run and kept {t.keptParts} part{t.keptParts === 1 ? "" : "s"} of
          it; its own calls: {tokens(t.own)} tokens · {t.own.calls} calls · {formatTotalCost(t.own)}
        </div>
      )}
    </div>
  );
}

/** Two stored runs side by side, step by step, with word and text diffs. */
export function CompareView({ pair }: { pair: [string, string] }) {
  const [data, setData] = useState<{ c: Comparison; metas: [RunMeta, RunMeta] } | string | null>(
    null,
  );
  useEffect(() => {
    const store = runStore();
    if (!store) return;
    void Promise.all(pair.map((k) => store.getRun(k))).then(([a, b]) => {
      if (!a?.ok || !b?.ok) return setData("One of the runs could not be read.");
      setData({ c: compareRuns(a.record, b.record), metas: [a.meta, b.meta] });
    });
  }, [pair]);
  const close = () => useStudio.getState().setHistoryCompare(null);
  // A modal: it takes focus, keeps Tab inside, closes on Escape and gives focus back.
  return (
    <Modal
      className="dialog compare"
      testId="compare"
      onClose={close}
      label="Compare runs"
      backdrop={CLOSING_BACKDROP}
    >
      <div className="row">
        <strong>Compare runs</strong>
        <button type="button" className="link" onClick={close} aria-label="Close">
          ×
        </button>
      </div>
      {typeof data === "string" && <p role="alert">{data}</p>}
      {data && typeof data !== "string" && (
        <>
          <div className="compare-grid compare-head">
            {data.metas.map((m, i) => (
              <div key={i}>
                <strong>{m.title || m.question}</strong>
                <div className="muted small">
                  {m.kind} · {m.status} · {new Date(m.createdAt).toLocaleString()}
                </div>
              </div>
            ))}
          </div>
          {data.c.rows.map((row) => (
            <div
              key={`${row.round}-${row.index}`}
              className="compare-step"
              data-testid="compare-step"
            >
              <div className="small muted">
                Round {row.round + 1}, step {row.index + 1}
              </div>
              <div className="compare-grid">
                {(["left", "right"] as const).map((side) => {
                  const s = row[side];
                  const show = side === "left" ? "removed" : "added";
                  if (!s)
                    return (
                      <div key={side} className="muted">
                        (no such step)
                      </div>
                    );
                  return (
                    <div key={side} data-testid={`compare-${side}`}>
                      <div className={row.same.worker ? "" : "changed"}>
                        <b>{s.worker}</b> · access {s.access} · {s.status}
                      </div>
                      <div className="compare-subtask" data-testid="compare-subtask">
                        <Diff parts={row.subtaskDiff} show={show} />
                      </div>
                      <pre className="compare-output" data-testid="compare-output">
                        <Diff parts={row.outputDiff} show={show} />
                      </pre>
                      <div className="small muted">
                        {num(s.tokens)} tokens ·{" "}
                        {s.unpriced ? "cost unknown" : s.cost === null ? "–" : formatCost(s.cost)} ·{" "}
                        {formatDuration(s.latencyMs)}
                      </div>
                    </div>
                  );
                })}
              </div>
            </div>
          ))}
          <div className="compare-step">
            <div className="small muted">Answers</div>
            <div className="compare-grid">
              <pre className="compare-output" data-testid="compare-answer-left">
                <Diff parts={data.c.answers.diff} show="removed" />
              </pre>
              <pre className="compare-output" data-testid="compare-answer-right">
                <Diff parts={data.c.answers.diff} show="added" />
              </pre>
            </div>
          </div>
          <div className="compare-grid small" data-testid="compare-totals">
            {(["left", "right"] as const).map((side) => (
              <SideTotals key={side} t={data.c.totals[side]} testId={`compare-totals-${side}`} />
            ))}
            <div className="muted" data-testid="compare-difference">
              Difference in whole-run totals (right − left):{" "}
              {signed(data.c.totals.difference.tokens, (n) => `${n.toLocaleString()} tokens`)},{" "}
              {data.c.totals.difference.cost === null
                ? "cost unknown (a call has no price)"
                : signed(data.c.totals.difference.cost, formatCost)}
            </div>
          </div>
        </>
      )}
    </Modal>
  );
}
