// A span tree as a small HTML waterfall, for the README's picture of a trace (docs only; a
// tracing tool such as Jaeger or Phoenix draws the same tree from the same OTLP JSON).
import type { AttrValue, Double, OtelSpan, OtelTrace } from "../../src/engine/otel/span.ts";

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function colour(s: OtelSpan): string {
  if (s.status.code === "error") return "#d9534f";
  const op = s.attributes["gen_ai.operation.name"];
  if (op === "invoke_workflow") return "#6c757d";
  if (op === "invoke_agent") return "#2f7ed8";
  if (op === "chat") return "#38a169";
  return s.name.startsWith("plan") ? "#b7791f" : "#8e6cc0";
}

/** An attribute as text (lists joined, doubles by value). */
function text(v: AttrValue | undefined): string {
  if (v === undefined) return "";
  if (Array.isArray(v)) return v.join(", ");
  if (typeof v === "object") return String((v as Double).double);
  return String(v);
}

/** What a row says beside its name: model and provider, tokens, cost, error type. */
function detail(s: OtelSpan): string {
  const a = s.attributes;
  const bits: string[] = [];
  if (a["gen_ai.operation.name"] === "chat") {
    bits.push(text(a["gen_ai.provider.name"]));
    if (a["gen_ai.usage.input_tokens"] !== undefined)
      bits.push(
        `${text(a["gen_ai.usage.input_tokens"])} in / ${text(a["gen_ai.usage.output_tokens"])} out tokens`,
      );
    const cost = a["llm.cost.total"];
    if (cost && typeof cost === "object" && "double" in cost)
      bits.push(`$${cost.double.toFixed(4)}`);
  }
  if (a["error.type"]) bits.push(`error.type=${text(a["error.type"])}`);
  if (a["conductor.round.accepted"] === true && s.name.startsWith("plan")) bits.push("accepted");
  return bits.join(" · ");
}

/** The page: one row per span in tree order, bars placed by time relative to the root. */
export function waterfallHtml(trace: OtelTrace, title: string): string {
  const root = trace.spans[0]!;
  const total = Math.max(1, root.endMs - root.startMs);
  const depth = new Map<string, number>([[root.spanId, 0]]);
  const rows = trace.spans.map((s) => {
    const d = s.parentSpanId ? (depth.get(s.parentSpanId) ?? 0) + 1 : 0;
    depth.set(s.spanId, d);
    const left = ((s.startMs - root.startMs) / total) * 100;
    const width = Math.max(0.4, ((s.endMs - s.startMs) / total) * 100);
    const ms = s.endMs - s.startMs;
    return `<div class="row"><div class="name" style="padding-left:${d * 18 + 8}px"><span class="kind">${esc(
      s.kind === "client" ? "CLIENT" : "INTERNAL",
    )}</span>${esc(s.name)}<span class="detail">${esc(detail(s))}</span></div><div class="lane"><div class="bar" style="left:${left}%;width:${width}%;background:${colour(
      s,
    )}"></div><span class="ms" style="left:calc(${left + width}% + 6px)">${(ms / 1000).toFixed(2)}s</span></div></div>`;
  });
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title><style>
body{font:13px/1.4 system-ui,sans-serif;margin:0;background:#fff;color:#1a202c}
header{padding:12px 16px;border-bottom:1px solid #e2e8f0}
header b{font-size:15px} header code{color:#4a5568}
.row{display:flex;border-bottom:1px solid #f1f3f5;height:26px;align-items:center}
.name{width:660px;box-sizing:border-box;flex:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.kind{display:inline-block;width:62px;font-size:10px;color:#718096}
.detail{color:#718096;margin-left:10px;font-size:12px}
.lane{position:relative;flex:1;height:100%;margin-right:70px}
.bar{position:absolute;top:7px;height:12px;border-radius:3px}
.ms{position:absolute;top:5px;font-size:11px;color:#4a5568}
</style></head><body><header><b>${esc(title)}</b> &nbsp; trace <code>${trace.traceId}</code> · ${
    trace.spans.length
  } spans · ${(total / 1000).toFixed(2)}s</header>${rows.join("")}</body></html>`;
}
