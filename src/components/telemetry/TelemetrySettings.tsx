import type { OtlpProtocol } from "../../engine/otel/endpoint.ts";
import { tracesUrl } from "../../engine/otel/endpoint.ts";
import type { GenAiConventions } from "../../engine/otel/span.ts";
import { useStudio } from "../../state/slices/store.ts";
import { CheckboxField } from "../ui/CheckboxField.tsx";

/**
 * Settings → Tracing: an optional OpenTelemetry collector that runs are sent to from this page, an
 * optional Authorization header for it (memory only), whether traces carry message contents, the
 * wire protocol (protobuf by default: Phoenix takes nothing else) and the GenAI convention names.
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
        <CheckboxField
          testId="otel-content"
          checked={t.content}
          onChange={(checked) => setTelemetry({ content: checked })}
        >
          Include prompts, answers, reasoning and subtasks in traces (off: only structure, models,
          tokens, cost and times)
        </CheckboxField>
        <label className="field">
          Protocol
          <select
            data-testid="otel-protocol"
            value={t.protocol}
            onChange={(e) => setTelemetry({ protocol: e.target.value as OtlpProtocol })}
          >
            <option value="http/protobuf">OTLP/HTTP protobuf (default; Phoenix needs it)</option>
            <option value="http/json">OTLP/HTTP JSON</option>
          </select>
        </label>
        <label className="field">
          GenAI convention names
          <select
            data-testid="otel-conventions"
            value={t.conventions}
            onChange={(e) => setTelemetry({ conventions: e.target.value as GenAiConventions })}
          >
            <option value="current">Current (GenAI conventions v0.1.0)</option>
            <option value="legacy">Legacy (semantic-conventions v1.41.0; for one version)</option>
          </select>
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
