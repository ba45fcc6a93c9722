import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useRef } from "react";
import type { RunStatus } from "../../engine/schema/record.ts";
import type { EvalGroup, HistoryKind } from "../../engine/store/history-view.ts";
import { download } from "../../state/run/files.ts";
import {
  deleteRuns,
  exportTexts,
  setHistoryOpen,
  undoDelete,
} from "../../state/run/historyController.ts";
import { importFiles } from "../../state/run/imports.ts";
import { ExampleButtons } from "../examples/ExampleButtons.tsx";
import { openRun } from "../../state/run/open.ts";
import { useStudio } from "../../state/slices/store.ts";
import { EvalGroupRow } from "./EvalGroupRow.tsx";
import { HistoryRow } from "./HistoryRow.tsx";
import { TraceActions } from "../telemetry/TraceActions.tsx";
import { storedRecords } from "../../state/run/telemetry.ts";
import { Lineage } from "./Lineage.tsx";
import "./history.css";
import { formatBytes } from "./format.ts";
import { LinkButton } from "../ui/LinkButton.tsx";

const STATUSES: RunStatus[] = ["done", "failed", "cancelled", "interrupted", "planned", "running"];
const ROW_HEIGHT = 64;
const KINDS: { value: HistoryKind; label: string }[] = [
  { value: "grouped", label: "Runs and evaluations" },
  { value: "runs", label: "My runs only" },
  { value: "evaluations", label: "Evaluations only" },
  { value: "items", label: "Evaluation items" },
];

/** Exports stored runs: one JSON file each, or all of them as one JSON-lines file. */
async function exportKeys(keys: string[], as: "json" | "jsonl"): Promise<void> {
  const texts = await exportTexts(keys);
  if (as === "jsonl") {
    const lines = texts.map((t) => JSON.stringify(JSON.parse(t.text) as unknown)).join("\n");
    download(`${lines}\n`, `conductor-runs-${texts.length}.jsonl`);
  } else for (const t of texts) download(t.text, `${t.key}.json`);
}

/** Every stored run: search, filter, star, rename, delete (undoable), export, import, compare. */
export function HistoryPanel() {
  const rows = useStudio((s) => s.historyRows);
  const entries = useStudio((s) => s.historyEntries);
  const hasAny = useStudio((s) => s.historyAll.length > 0);
  const query = useStudio((s) => s.historyQuery);
  const selected = useStudio((s) => s.historySelected);
  const storage = useStudio((s) => s.historyStorage);
  const undo = useStudio((s) => s.historyDeleted);
  const error = useStudio((s) => s.historyError);
  const openKey = useStudio((s) => s.openKey);
  const liveId = useStudio((s) => s.liveId);
  const { setHistoryQuery, toggleHistorySelected, setHistoryCompare } = useStudio.getState();
  const scroller = useRef<HTMLDivElement>(null);
  const importInput = useRef<HTMLInputElement>(null);
  const virtual = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
  });
  const open = useCallback((key: string) => {
    void openRun(key).then((m) => m && useStudio.getState().setNotice(m));
  }, []);
  const exportOne = useCallback((key: string) => void exportKeys([key], "json"), []);
  const openEvaluation = useCallback((id: string) => {
    // The evaluation code loads with the report, not with History.
    void import("../../state/eval/evalController.ts")
      .then((m) => m.openStoredEvaluation(id))
      .then((m) => m && useStudio.setState({ historyError: m }));
  }, []);
  const showItems = useCallback(
    (g: EvalGroup) => useStudio.getState().setHistoryQuery({ kind: "items", text: g.name }),
    [],
  );
  const evaluations = entries.length - rows.length;
  // An export of the selection lists its runs as History does (newest first), not in click order.
  const inListOrder = () => rows.map((r) => r.key).filter((k) => selected.includes(k));
  return (
    <section className="history-panel" data-testid="history-panel" aria-label="History">
      <div className="history-head">
        <strong>History</strong>
        <span className="muted small" data-testid="history-count">
          {rows.length} run{rows.length === 1 ? "" : "s"}
          {evaluations ? ` · ${evaluations} evaluation${evaluations === 1 ? "" : "s"}` : ""}
        </span>
        <button
          type="button"
          className="link"
          onClick={() => setHistoryOpen(false)}
          aria-label="Close history"
        >
          ×
        </button>
      </div>
      <Lineage />
      <div className="history-filters">
        <input
          type="search"
          placeholder="Search runs"
          title="Search questions and run names"
          aria-label="Search runs"
          data-testid="history-search"
          value={query.text}
          onChange={(e) => setHistoryQuery({ text: e.target.value })}
        />
        <select
          aria-label="Filter by status"
          data-testid="history-status-filter"
          value={query.status}
          onChange={(e) => setHistoryQuery({ status: e.target.value as RunStatus | "" })}
        >
          <option value="">Any status</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <select
          aria-label="Filter by kind"
          data-testid="history-kind-filter"
          value={query.kind}
          onChange={(e) => setHistoryQuery({ kind: e.target.value as HistoryKind })}
        >
          {KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
        <label className="small">
          <input
            type="checkbox"
            data-testid="history-starred-filter"
            checked={query.starred}
            onChange={(e) => setHistoryQuery({ starred: e.target.checked })}
          />{" "}
          ★ only
        </label>
      </div>
      <div className="history-bulk row">
        {/* A real button (reachable by Tab, Enter or Space) in front of the hidden file input. */}
        <button
          type="button"
          className="small"
          data-testid="history-import-button"
          onClick={() => importInput.current?.click()}
        >
          Import files…
        </button>
        <input
          ref={importInput}
          type="file"
          multiple
          accept=".json,.jsonl,.ndjson,application/json"
          data-testid="history-import"
          aria-label="Import run files"
          hidden
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = "";
            void importFiles(files);
          }}
        />
        <button
          type="button"
          disabled={!selected.length}
          data-testid="history-export-json"
          onClick={() => void exportKeys(inListOrder(), "json")}
        >
          Export {selected.length || ""} as JSON
        </button>
        <button
          type="button"
          disabled={!selected.length}
          data-testid="history-export-jsonl"
          onClick={() => void exportKeys(inListOrder(), "jsonl")}
        >
          Export {selected.length || ""} as JSON lines
        </button>
        <TraceActions
          testId="history-otel"
          disabled={!selected.length}
          load={() => storedRecords(inListOrder())}
        />
        <button
          type="button"
          data-testid="history-compare"
          disabled={selected.length !== 2}
          onClick={() => {
            // The older run on the left: differences read as what the newer one changed.
            const at = (k: string) => rows.find((r) => r.key === k)?.createdAt ?? 0;
            const [a, b] = [...selected].sort((x, y) => at(x) - at(y));
            setHistoryCompare([a!, b!]);
          }}
          title="Pick two runs to compare"
        >
          Compare
        </button>
        <button
          type="button"
          disabled={!selected.length}
          className="danger-text"
          data-testid="history-delete-selected"
          onClick={() => void deleteRuns(selected.filter((k) => k !== liveId))}
        >
          Delete
        </button>
      </div>
      <ExampleButtons where="history" />
      {undo && (
        <div className="notice" role="status" data-testid="history-undo">
          Deleted {undo.count} run{undo.count === 1 ? "" : "s"}.{" "}
          <LinkButton testId="history-undo-button" onClick={() => void undoDelete()}>
            Undo
          </LinkButton>
        </div>
      )}
      {error && (
        <div className="notice" role="alert">
          {error}
        </div>
      )}
      <div className="history-list" ref={scroller} data-testid="history-list">
        <div style={{ height: virtual.getTotalSize(), position: "relative" }}>
          {virtual.getVirtualItems().map((item) => {
            const entry = entries[item.index]!;
            return (
              <div
                key={entry.key}
                style={{
                  position: "absolute",
                  top: 0,
                  left: 0,
                  right: 0,
                  height: ROW_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                }}
              >
                {entry.type === "evaluation" ? (
                  <EvalGroupRow group={entry.group} onOpen={openEvaluation} onItems={showItems} />
                ) : (
                  <HistoryRow
                    row={entry.row}
                    selected={selected.includes(entry.key)}
                    isOpen={entry.key === openKey}
                    isLive={entry.row.runId === liveId}
                    onOpen={open}
                    onToggle={toggleHistorySelected}
                    onExport={exportOne}
                  />
                )}
              </div>
            );
          })}
        </div>
        {!entries.length && (
          <p className="muted small">
            {hasAny
              ? "Nothing stored matches the search and filters."
              : "No stored runs yet: plan or run, and they appear here."}
          </p>
        )}
      </div>
      <div className="muted small history-storage" data-testid="history-storage">
        {storage
          ? `${storage.runs} runs, ${formatBytes(storage.bytes)} of records · browser storage ${formatBytes(storage.usedBytes)} used of ${formatBytes(storage.quotaBytes)}${storage.persisted ? " · persistent" : ""}`
          : "Storage: …"}
      </div>
    </section>
  );
}
