import { tracesUrl } from "../../engine/otel/endpoint.ts";
import { useStudio } from "../../state/store.ts";

/**
 * Settings → Tracing: an optional OpenTelemetry collector that runs are sent to from this page, an
 * optional Authorization header for it (memory only), and whether traces carry message contents.
 */
export function TelemetrySettings() {
  const t = useStudio((s) => s.telemetry);
  const { setTelemetry } = useStudio.getState();
  const url = t.collectorURL.trim();
  const check = url ? tracesUrl(url) : null;
  const origin = window.location.origin;
  return (
    <section data-testid="telemetry-settings">
      <h3>Tracing (OpenTelemetry)</h3>
      <div className="grid2">
        <label className="field span2">
          Collector traces URL (optional)
          <input
            type="url"
            data-testid="otel-collector-url"
            placeholder="http://localhost:6006/v1/traces"
            value={t.collectorURL}
            onChange={(e) => setTelemetry({ collectorURL: e.target.value })}
          />
        </label>
        {check && !check.ok && (
          <p className="notice span2" role="alert" data-testid="otel-url-problem">
            {check.message}
          </p>
        )}
        <label className="field span2">
          Authorization header (optional; kept in memory only, sent only to the collector)
          <input
            type="password"
            autoComplete="off"
            data-testid="otel-authorization"
            placeholder="Basic <base64 of public-key:secret-key> (Langfuse)"
            value={t.authorization}
            onChange={(e) => setTelemetry({ authorization: e.target.value })}
          />
        </label>
        <label className="field checkbox span2">
          <input
            type="checkbox"
            data-testid="otel-content"
            checked={t.content}
            onChange={(e) => setTelemetry({ content: e.target.checked })}
          />
          Include prompts, answers, reasoning and subtasks in traces (off: only structure, models,
          tokens, cost and times)
        </label>
        <p className="muted small span2" data-testid="otel-cors-note">
          Traces are sent from this page, so the collector must allow its origin ({origin}) by CORS.
          Phoenix does with <code>PHOENIX_ALLOWED_ORIGINS={origin}</code>; an OpenTelemetry
          Collector with <code>cors.allowed_origins</code> under its OTLP HTTP receiver. Keys and
          secret headers of workers are never part of a trace.
        </p>
      </div>
    </section>
  );
}
