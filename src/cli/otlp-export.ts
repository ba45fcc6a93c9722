/**
 * Sends run records as OpenTelemetry traces to a collector (OTLP/HTTP, protobuf by default or
 * JSON), for every command that runs something: `run`, `eval`, `serve`, `reward`, `otel` (and any
 * later one, with the same options).
 * It never slows or fails a run: `add` maps the record and queues it at once; batches are posted
 * in the background, retried with back-off on 429/502/503/504 and dropped connections; a
 * collector that stays away costs a message on stderr, never the run or its record. `close`
 * waits a bounded time for what is still queued. Header values are secrets: never logged.
 */
import type { Failure } from "../engine/errors.ts";
import { ErrorCode } from "../engine/errors.ts";
import type { OtlpProtocol } from "../engine/otel/endpoint.ts";
import {
  DEFAULT_OTLP_PROTOCOL,
  OTLP_PROTOCOLS,
  contentTypeOf,
  refusalMessage,
  retryableStatus,
  tracesUrl,
} from "../engine/otel/endpoint.ts";
import { traceOf } from "../engine/otel/map.ts";
import { otlpJson, otlpRequest } from "../engine/otel/otlp.ts";
import { otlpProtobuf } from "../engine/otel/otlp-protobuf.ts";
import type { Attributes, GenAiConventions, OtelTrace } from "../engine/otel/span.ts";
import { GEN_AI_CONVENTIONS } from "../engine/otel/span.ts";
import type { RunRecord } from "../engine/schema/record.ts";
import { UsageError } from "./command.ts";
import type { OptionTable } from "./options.ts";

/** The options every exporting command takes (spread into its parseArgs options). */
export const OTLP_OPTIONS = {
  "otlp-endpoint": { type: "string" },
  "otlp-headers-env": { type: "string" },
  "otlp-content": { type: "boolean" },
  "otlp-protocol": { type: "string" },
  "otel-conventions": { type: "string" },
} as const;

/** The help lines for the options beyond --otlp-endpoint, the same for every command. */
export const OTLP_PROTOCOL_HELP = `  --otlp-protocol P      http/protobuf (default, as OpenTelemetry's SDKs) or http/json
  --otel-conventions C   GenAI convention names: current (v0.1.0, default) or legacy (v1.41.0)`;

export interface OtlpTarget {
  url: string;
  headers: Record<string, string>;
  content: boolean;
  protocol: OtlpProtocol;
  conventions: GenAiConventions;
}

export interface OtlpTuning {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Per request. */
  timeoutMs: number;
  /** How long a queued trace waits for others to share its request. */
  batchDelayMs: number;
  /** A request carries at most this many spans; more start another one. */
  maxSpans: number;
  /** How long `close` waits for unsent traces before giving them up. */
  closeTimeoutMs: number;
}

export const OTLP_TUNING: OtlpTuning = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  timeoutMs: 10_000,
  batchDelayMs: 1_000,
  maxSpans: 2_000,
  closeTimeoutMs: 15_000,
};

/** Headers as `OTEL_EXPORTER_OTLP_HEADERS` writes them: `k=v,k2=v2`, values percent-decoded. */
export function parseHeaders(text: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const part of text.split(",")) {
    if (!part.trim()) continue;
    const eq = part.indexOf("=");
    const name = eq > 0 ? part.slice(0, eq).trim() : "";
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      return "it must read name=value,name2=value2 (as OTEL_EXPORTER_OTLP_HEADERS).";
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // A value with a bare % is taken as written.
    }
    out[name] = value;
  }
  return out;
}

export type OtlpOptionValues = {
  "otlp-endpoint"?: string;
  "otlp-headers-env"?: string;
  "otlp-content"?: boolean;
  "otlp-protocol"?: string;
  "otel-conventions"?: string;
};

/** --otlp-protocol and --otel-conventions, checked; a message for the user when one is wrong. */
export function readTraceFormat(
  values: OtlpOptionValues,
): { protocol: OtlpProtocol; conventions: GenAiConventions } | string {
  const protocol = values["otlp-protocol"] ?? DEFAULT_OTLP_PROTOCOL;
  if (!(OTLP_PROTOCOLS as readonly string[]).includes(protocol))
    return `--otlp-protocol must be ${OTLP_PROTOCOLS.join(" or ")}, got "${protocol}".`;
  const conventions = values["otel-conventions"] ?? "current";
  if (!(GEN_AI_CONVENTIONS as readonly string[]).includes(conventions))
    return `--otel-conventions must be ${GEN_AI_CONVENTIONS.join(" or ")}, got "${conventions}".`;
  return {
    protocol: protocol as OtlpProtocol,
    conventions: conventions as GenAiConventions,
  };
}

/** Reads the options: no target without --otlp-endpoint, or a message for the user. */
export function readOtlpOptions(
  values: OtlpOptionValues,
  env: NodeJS.ProcessEnv,
): { ok: true; target: OtlpTarget | null } | ({ ok: false } & Failure) {
  const endpoint = values["otlp-endpoint"];
  const headersEnv = values["otlp-headers-env"];
  const format = readTraceFormat(values);
  if (typeof format === "string")
    return { ok: false, code: ErrorCode.invalid_argument, message: format };
  if (endpoint === undefined) {
    if (headersEnv || values["otlp-content"] || values["otlp-protocol"])
      return {
        ok: false,
        code: ErrorCode.invalid_argument,
        message: "--otlp-headers-env, --otlp-content and --otlp-protocol need --otlp-endpoint URL.",
      };
    return { ok: true, target: null };
  }
  const url = tracesUrl(endpoint);
  if (!url.ok)
    return {
      ok: false,
      code: ErrorCode.invalid_argument,
      message: `--otlp-endpoint: ${url.message}`,
    };
  let headers: Record<string, string> = {};
  if (headersEnv) {
    const text = env[headersEnv];
    if (!text)
      return {
        ok: false,
        code: ErrorCode.invalid_argument,
        message: `--otlp-headers-env ${headersEnv}: that environment variable is not set.`,
      };
    const parsed = parseHeaders(text);
    if (typeof parsed === "string")
      return { ok: false, code: ErrorCode.invalid_argument, message: `$${headersEnv}: ${parsed}` };
    headers = parsed;
  }
  return {
    ok: true,
    target: { url: url.url, headers, content: values["otlp-content"] === true, ...format },
  };
}

/**
 * The one-line hookup for a command: `const otlp = otlpExporter(values, io)` (null without
 * --otlp-endpoint; a UsageError for a bad option), then `otlp?.add(record)` per run and
 * `await otlp?.close()` before returning.
 */
export function otlpExporter(
  values: OtlpOptionValues,
  io: { stderr: (s: string) => void; env: NodeJS.ProcessEnv },
): OtlpExporter | null {
  const read = readOtlpOptions(values, io.env);
  if (!read.ok) throw new UsageError(read.message);
  return read.target && new OtlpExporter(read.target, (line) => io.stderr(`[otel] ${line}\n`));
}

/** A back-off wait that never keeps the process alive on its own. */
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export class OtlpExporter {
  private queue: OtelTrace[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Requests in flight, with how many traces each carries. */
  private readonly sending = new Map<Promise<void>, number>();
  private closed = false;
  private gaveUp = false;
  /** Traces that could not be delivered (refused, unreachable, or given up at close). */
  dropped = 0;
  /** Aborts requests still in flight once `close` has given up on them. */
  private readonly abandon = new AbortController();

  constructor(
    readonly target: OtlpTarget,
    private readonly log: (line: string) => void,
    private readonly tuning: OtlpTuning = OTLP_TUNING,
    private readonly post: typeof fetch = fetch,
  ) {}

  /** Queues a run's trace; returns at once. `rootAttributes` go on its root span. */
  add(record: RunRecord, rootAttributes?: Attributes): void {
    if (this.closed) return;
    try {
      const { content, conventions } = this.target;
      this.queue.push(traceOf(record, { content, conventions, rootAttributes }));
    } catch (e: unknown) {
      // A bug in the mapping must not cost the run: say so and go on without this trace.
      this.dropped += 1;
      this.log(
        `could not map run ${record.id} to a trace: ${e instanceof Error ? e.message : String(e)}`,
      );
      return;
    }
    const spans = this.queue.reduce((n, t) => n + t.spans.length, 0);
    if (spans >= this.tuning.maxSpans) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.tuning.batchDelayMs).unref();
  }

  /** Starts sending everything queued, in requests of at most `maxSpans` spans. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length) {
      const batch: OtelTrace[] = [];
      let spans = 0;
      while (
        this.queue.length &&
        (batch.length === 0 || spans + this.queue[0]!.spans.length <= this.tuning.maxSpans)
      ) {
        const t = this.queue.shift()!;
        batch.push(t);
        spans += t.spans.length;
      }
      const sent = this.send(batch, spans).finally(() => this.sending.delete(sent));
      this.sending.set(sent, batch.length);
    }
  }

  /** Sends what is queued and waits for it, at most `closeTimeoutMs`; later `add`s are ignored. */
  async close(): Promise<void> {
    this.closed = true;
    this.flush();
    if (!this.sending.size) return;
    const done = Promise.allSettled([...this.sending.keys()]).then(() => true);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<false>(
      (resolve) => (timer = setTimeout(() => resolve(false), this.tuning.closeTimeoutMs)),
    );
    const finished = await Promise.race([done, late]);
    clearTimeout(timer);
    if (!finished) {
      this.gaveUp = true;
      for (const n of this.sending.values()) this.dropped += n;
      this.abandon.abort();
      this.log(
        `gave up waiting for ${this.target.url} after ${this.tuning.closeTimeoutMs / 1000}s; unsent traces are dropped (the runs are not affected).`,
      );
    }
  }

  private async send(batch: OtelTrace[], spans: number): Promise<void> {
    const { protocol } = this.target;
    const body = protocol === "http/json" ? otlpJson(batch) : otlpProtobuf(otlpRequest(batch));
    const what = `${batch.length} trace${batch.length === 1 ? "" : "s"} (${spans} spans)`;
    let problem = "";
    for (let attempt = 1; attempt <= this.tuning.maxAttempts && !this.gaveUp; attempt++) {
      let retryAfterMs: number | undefined;
      try {
        const res = await this.post(this.target.url, {
          method: "POST",
          headers: { ...this.target.headers, "Content-Type": contentTypeOf(protocol) },
          body,
          signal: AbortSignal.any([
            AbortSignal.timeout(this.tuning.timeoutMs),
            this.abandon.signal,
          ]),
        });
        const text = await res.text().catch(() => "");
        if (res.ok) {
          this.log(`sent ${what} to ${this.target.url}${rejected(text)}`);
          return;
        }
        problem = refusalMessage(res.status, res.statusText, protocol);
        if (!retryableStatus(res.status)) break;
        const after = Number(res.headers.get("retry-after"));
        if (Number.isFinite(after) && after > 0) retryAfterMs = after * 1000;
      } catch (e: unknown) {
        problem = `Cannot reach the collector (${e instanceof Error ? causeOf(e) : String(e)}).`;
      }
      if (attempt < this.tuning.maxAttempts) {
        const backoff = Math.min(
          this.tuning.maxDelayMs,
          this.tuning.baseDelayMs * 2 ** (attempt - 1),
        );
        await wait(Math.min(this.tuning.maxDelayMs, retryAfterMs ?? backoff));
      }
    }
    if (this.gaveUp) return; // counted and said by close
    this.dropped += batch.length;
    this.log(
      `could not send ${what} to ${this.target.url}: ${problem} They are dropped; the runs are not affected.`,
    );
  }
}

/** A partial success, as OTLP reports it in a 200 answer (read from JSON answers only). */
function rejected(text: string): string {
  const m = /"rejectedSpans"\s*:\s*"?(\d+)/.exec(text);
  return m && m[1] !== "0" ? `; the collector rejected ${m[1]} of them` : "";
}

/** fetch's "fetch failed" hides the reason (ECONNREFUSED, ENOTFOUND) in `cause`. */
function causeOf(e: Error): string {
  const cause = e.cause;
  if (cause instanceof Error)
    return "code" in cause ? `${String(cause.code)}: ${cause.message}` : cause.message;
  return e.name === "TimeoutError" ? "no answer in time" : e.message;
}

/**
 * OTLP_OPTIONS with their help lines, for a command whose help comes from its option table (`run`,
 * `eval`): `sent` is what goes to the collector ("the run", "each item's run").
 */
export function otlpOptionTable(sent: string, traces: "trace" | "traces") {
  return {
    "otlp-endpoint": {
      type: "string",
      arg: "URL",
      description: `send ${sent} as an OpenTelemetry trace (OTLP/HTTP) to a collector`,
    },
    "otlp-headers-env": {
      type: "string",
      arg: "VAR",
      description: "a variable holding the collector's headers as k=v,k2=v2",
    },
    "otlp-content": {
      type: "boolean",
      description: `add prompts and answers to the ${traces} (off by default)`,
    },
    "otlp-protocol": {
      type: "string",
      arg: "P",
      description: "http/protobuf (default, as OpenTelemetry's SDKs) or http/json",
    },
    "otel-conventions": {
      type: "string",
      arg: "C",
      description: "GenAI convention names: current (v0.1.0, default) or legacy (v1.41.0)",
    },
  } as const satisfies OptionTable;
}
