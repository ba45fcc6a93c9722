// `conductor-studio otel`: stored runs as OpenTelemetry traces, printed (OTLP JSON) or sent.
import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { traceOf } from "../../engine/otel/map.ts";
import { otlpJson } from "../../engine/otel/otlp.ts";
import { importRunChecked } from "../../engine/run/validate.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import type { CliCommand, Io } from "../command.ts";
import { UsageError } from "../command.ts";
import { OTLP_OPTIONS, OTLP_PROTOCOL_HELP, otlpExporter, readTraceFormat } from "../otlp-export.ts";
import { EXIT, exitCodesHelp } from "../exit-codes.ts";
import { outputProblem } from "../output-paths.ts";

const HELP = `Turn run records into OpenTelemetry traces, printed (OTLP JSON) or sent to a collector.

Usage: conductor-studio otel RUN.json... [--content] [--out FILE] [--otlp-endpoint URL]

Options:
  --content              add prompts, answers, reasoning and subtasks (off by default)
  --out FILE             write the OTLP JSON there instead of stdout
  --otlp-endpoint URL    send it to a collector instead (e.g. http://localhost:6006/v1/traces)
  --otlp-headers-env VAR a variable holding the collector's headers as k=v,k2=v2
${OTLP_PROTOCOL_HELP} (sending; what is printed is JSON)

Each input is a run export, or JSON lines of them (History's export, serve --runs); "-" reads
stdin. Each run is one trace in the GenAI semantic conventions (v0.1.0 of their own repository by
default): invoke_workflow, a plan span per round with the Conductor's chat, invoke_agent per step
with a chat span per attempt. The output is one ExportTraceServiceRequest. Keys and secret header values never appear; exporting the same run
twice gives the same trace and span ids.

${exitCodesHelp({
  [EXIT.ok]: "every run was turned into a trace (and sent, with --otlp-endpoint)",
  [EXIT.failed]: "the collector refused the traces or could not be reached",
  [EXIT.usage]: "a bad option, or a file that is not a run record",
})}
Examples:
  conductor-studio otel run.json --content > trace.json
  conductor-studio otel runs.jsonl --otlp-endpoint http://localhost:6006/v1/traces
`;

/** The runs in one file: a whole export, or one export per line. */
function runsIn(text: string, name: string): RunRecord[] {
  const whole = importRunChecked(text);
  if (whole.ok) return [whole.record];
  const lines = text.split("\n").filter((l) => l.trim());
  if (lines.length < 2) throw new UsageError(`${name}: ${whole.message}`);
  return lines.map((line, i) => {
    const one = importRunChecked(line);
    if (!one.ok) throw new UsageError(`${name}, line ${i + 1}: ${one.message}`);
    return one.record;
  });
}

async function run(args: string[], io: Io): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(HELP);
    return 0;
  }
  const { values, positionals } = parseArgs({
    args,
    options: { content: { type: "boolean" }, out: { type: "string" }, ...OTLP_OPTIONS },
    allowPositionals: true,
  });
  if (!positionals.length) throw new UsageError("Give one or more run files (or - for stdin).");
  if (values["otlp-content"]) throw new UsageError("Use --content with otel.");
  const content = values.content === true;
  const sending = values["otlp-endpoint"] !== undefined;
  const exporter = otlpExporter({ ...values, "otlp-content": sending && content }, io);
  const format = readTraceFormat(values);
  if (typeof format === "string") throw new UsageError(format);
  if (values.out) {
    const inputs = positionals.filter((f) => f !== "-");
    const refused = await outputProblem([values.out], inputs, "Nothing was written.");
    if (refused) throw new UsageError(refused);
  }
  const records: RunRecord[] = [];
  for (const file of positionals) {
    let text: string;
    try {
      text = file === "-" ? await io.readStdin() : await readFile(file, "utf8");
    } catch (e: unknown) {
      io.stderr(`Cannot read ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
      return 2;
    }
    records.push(...runsIn(text, file === "-" ? "stdin" : file));
  }
  if (exporter) {
    for (const r of records) exporter.add(r);
    await exporter.close();
    return exporter.dropped ? 1 : 0;
  }
  const json = otlpJson(
    records.map((r) => traceOf(r, { content, conventions: format.conventions })),
  );
  if (values.out) await writeFile(values.out, json);
  else io.stdout(json);
  return 0;
}

export const otelCommand: CliCommand = {
  name: "otel",
  summary: "turn run records into OpenTelemetry traces, printed (OTLP JSON) or sent to a collector",
  help: HELP,
  run,
};
