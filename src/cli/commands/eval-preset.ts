// `eval --preset NAME`: a benchmark preset's questions from the Hub (pinned at the revision read)
// or, with --dataset, from a local file in the Hub's row shape (JSONL, JSON, CSV or parquet).
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { datasetHash } from "../../engine/eval/dataset/hash.ts";
import { hubFetch } from "../../engine/eval/dataset/hf-auth.ts";
import { HF_ROWS_BASE } from "../../engine/eval/dataset/hf.ts";
import { HF_HUB_BASE, loadPinnedHfRows } from "../../engine/eval/dataset/hf-pin.ts";
import type { DateWindow } from "../../engine/eval/dataset/livecodebench.ts";
import type { SourceRow } from "../../engine/eval/dataset/parse.ts";
import { detectFormat, mapRows, parseTable } from "../../engine/eval/dataset/parse.ts";
import { presetRows } from "../../engine/eval/dataset/preset-rows.ts";
import type { BenchmarkPreset } from "../../engine/eval/dataset/presets.ts";
import { BENCHMARK_PRESETS } from "../../engine/eval/dataset/presets.ts";
import type { ColumnMapping, EvalItem } from "../../engine/eval/dataset/item-schema.ts";
import { DEFAULT_COLUMNS } from "../../engine/eval/dataset/item-schema.ts";
import type { Loaded } from "./eval-files.ts";
import { UsageError } from "../command.ts";
import { didYouMean } from "../suggest.ts";

/** Where the CLI reads the Hub. */
export interface HubBases {
  rows: string;
  hub: string;
}

/**
 * The Hub's bases: `HF_ENDPOINT` (the Hub's own variable, for a mirror) and
 * `CONDUCTOR_HF_ROWS_ENDPOINT` (the rows API) override the public ones; tests aim them at a local server.
 */
export function hubBases(env: Record<string, string | undefined>): HubBases {
  return {
    rows: env.CONDUCTOR_HF_ROWS_ENDPOINT || HF_ROWS_BASE,
    hub: env.HF_ENDPOINT || HF_HUB_BASE,
  };
}

/** `--hf-token-env VAR`: the token that variable holds; an unset or empty one is a usage error. */
export function tokenFrom(
  name: string | undefined,
  env: Record<string, string | undefined>,
): string | undefined {
  if (name === undefined) return undefined;
  const token = env[name]?.trim();
  if (!token) throw new UsageError(`--hf-token-env ${name}: that environment variable is not set.`);
  return token;
}

/** The preset named `id`, or a usage error listing the presets. */
export function presetById(id: string): BenchmarkPreset {
  const p = BENCHMARK_PRESETS.find((x) => x.id === id);
  if (p) return p;
  const ids = BENCHMARK_PRESETS.map((x) => x.id);
  throw new UsageError(
    `Unknown preset "${id}"${didYouMean(id, ids)}; the presets are ${ids.join(", ")} (eval --list-presets).`,
  );
}

/** `eval --list-presets`: one block per preset, everything a reader needs to trust it. */
export function presetList(): string {
  return BENCHMARK_PRESETS.map((p) =>
    [
      `${p.id}  ${p.name}${p.gated ? "  (gated: --hf-token-env)" : ""}`,
      `  dataset    ${p.source.dataset} (${p.source.config}/${p.source.split}, ${p.source.length} rows)`,
      `  scorer     ${p.scorer}`,
      `  columns    ${Object.entries(p.mapping)
        .map(([k, v]) => `${k}=${v}`)
        .join(", ")}`,
      `  answer     ${p.instruction}`,
      `  follows    ${p.reference}`,
      `  ${p.note}`,
    ].join("\n"),
  ).join("\n\n");
}

/** `--since`/`--until`: days as YYYY-MM-DD. */
export function dateWindow(since?: string, until?: string): DateWindow {
  for (const [flag, v] of [
    ["--since", since],
    ["--until", until],
  ] as const)
    if (v !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(v))
      throw new UsageError(`${flag} takes a day as YYYY-MM-DD, got "${v}".`);
  return { ...(since ? { since } : {}), ...(until ? { until } : {}) };
}

async function fileRows(file: string): Promise<Loaded<SourceRow[]>> {
  const why = (e: unknown) => (e instanceof Error ? e.message : String(e));
  try {
    if (file.toLowerCase().endsWith(".parquet")) {
      const { parquetReadObjects } = await import("hyparquet");
      const bytes = await readFile(file);
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      const rows = await parquetReadObjects({ file: buffer });
      return { ok: true, value: rows.map((values, i) => ({ line: i + 1, values })) };
    }
    const text = await readFile(file, "utf8");
    const table = parseTable(text, detectFormat(text, file));
    if (table.bad.length) {
      const b = table.bad[0]!;
      return { ok: false, message: `${file} line ${b.line}: ${b.message}` };
    }
    return { ok: true, value: table.rows };
  } catch (e: unknown) {
    return { ok: false, message: `Cannot read the dataset ${file}: ${why(e)}` };
  }
}

export interface PresetDataset {
  items: EvalItem[];
  hash: string;
  mapping: ColumnMapping;
  /** The name the evaluation records: the preset and where its rows came from. */
  name: string;
}

/**
 * A preset's questions: rows from `file` or the Hub (with `token` sent to the Hub alone), reshaped
 * as the preset says, mapped by its columns. Rows that cannot be read are an error unless `skipBad`.
 */
export async function loadPresetDataset(
  preset: BenchmarkPreset,
  o: {
    file?: string;
    config?: string;
    token?: string;
    window: DateWindow;
    skipBad: boolean;
    warn: (s: string) => void;
    hub: HubBases;
  },
): Promise<Loaded<PresetDataset>> {
  let rows: SourceRow[];
  let from: string;
  let revision: string | undefined;
  if (o.file) {
    const read = await fileRows(o.file);
    if (!read.ok) return read;
    rows = read.value;
    from = basename(o.file);
  } else {
    const hub = o.hub;
    if (preset.gated && !o.token)
      return {
        ok: false,
        message: `${preset.name} is gated on the Hub: accept its terms with your account, then pass --hf-token-env VAR naming a variable that holds your token (or --dataset FILE with its rows).`,
      };
    const source = { ...preset.source, config: o.config ?? preset.source.config };
    const r = await loadPinnedHfRows(source, {
      fetch: hubFetch(fetch, o.token, [hub.rows, hub.hub]),
      base: hub.rows,
      hub: hub.hub,
      pinned: preset.revision,
    });
    if (!r.ok) return { ok: false, message: `${preset.name}: ${r.message}` };
    rows = r.rows;
    revision = r.source.revision ?? undefined;
    const rev = r.source.revision ? `@${r.source.revision.slice(0, 12)}` : "";
    from = `${source.dataset} ${source.config}/${source.split}${rev}`;
  }
  const shaped = await presetRows(preset, rows, {
    window: o.window,
    ...(revision ? { revision } : {}),
  });
  const mapping: ColumnMapping = { ...DEFAULT_COLUMNS, ...preset.mapping };
  const mapped = mapRows(shaped.rows, mapping);
  const bad = [...shaped.bad, ...mapped.bad].sort((a, b) => a.line - b.line);
  if (bad.length) {
    const list = bad.map((b) => `  row ${b.line}: ${b.message}`).join("\n");
    if (!o.skipBad)
      return {
        ok: false,
        message: `${bad.length} row(s) of ${from} cannot be read as ${preset.name}:\n${list}\nFix them, or pass --skip-bad-rows.`,
      };
    o.warn(`Skipping ${bad.length} row(s):\n${list}\n`);
  }
  if (mapped.items.length === 0)
    return {
      ok: false,
      message: `No ${preset.name} questions in ${from} (after the date window).`,
    };
  return {
    ok: true,
    value: {
      items: mapped.items,
      hash: datasetHash(mapped.items),
      mapping,
      name: `${preset.name} (${from})`,
    },
  };
}
