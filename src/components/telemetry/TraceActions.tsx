import { useState } from "react";
import type { RunRecord } from "../../engine/schema/record.ts";
import { download } from "../../state/run/files.ts";
import { useStudio } from "../../state/slices/store.ts";
import { sendTraces, traceText } from "../../state/run/telemetry.ts";

type Status = { ok: boolean; message: string } | null;

/**
 * "Export as OpenTelemetry trace" for the runs `load` gives (the open run, or History's
 * selection), and "Send to collector" when Settings names one. What happened is said beside them.
 */
export function TraceActions({
  load,
  disabled,
  testId,
  label = "Export as OpenTelemetry trace",
  sendLabel = "Send trace to collector",
}: {
  load: () => Promise<RunRecord[]> | RunRecord[];
  disabled: boolean;
  testId: string;
  label?: string;
  sendLabel?: string;
}) {
  const collector = useStudio((s) => s.telemetry.collectorURL.trim());
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);
  const exportFile = async () => {
    const records = await load();
    if (!records.length) return setStatus({ ok: false, message: "No run to export." });
    const { telemetry } = useStudio.getState();
    const name =
      records.length === 1
        ? `${records[0]!.id}.otlp.json`
        : `conductor-traces-${records.length}.otlp.json`;
    download(traceText(records, telemetry), name);
    setStatus(null);
  };
  const send = async () => {
    setBusy(true);
    setStatus(null);
    try {
      setStatus(await sendTraces(await load(), useStudio.getState().telemetry));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        data-testid={`${testId}-export`}
        disabled={disabled}
        title="Download OTLP JSON for Phoenix, Langfuse, Jaeger or any OpenTelemetry collector"
        onClick={() => void exportFile()}
      >
        {label}
      </button>
      {collector && (
        <button
          type="button"
          data-testid={`${testId}-send`}
          disabled={disabled || busy}
          title={`POST the trace to ${collector}`}
          onClick={() => void send()}
        >
          {busy ? "Sending…" : sendLabel}
        </button>
      )}
      {status && (
        <span
          className={status.ok ? "muted small" : "notice small"}
          role={status.ok ? "status" : "alert"}
          data-testid={`${testId}-status`}
        >
          {status.message}
        </span>
      )}
    </>
  );
}
