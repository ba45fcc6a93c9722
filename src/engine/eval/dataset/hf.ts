import { z } from "zod";
import type { SourceRow } from "./parse.ts";

/** The public rows API of the Hugging Face Hub's dataset viewer. */
export const HF_ROWS_BASE = "https://datasets-server.huggingface.co";
/** The API answers at most this many rows per request. */
export const HF_PAGE = 100;

const RowsResponseSchema = z.object({
  features: z.array(z.object({ name: z.string() })).default([]),
  rows: z.array(z.object({ row_idx: z.number().int(), row: z.record(z.string(), z.unknown()) })),
  num_rows_total: z.number().int().optional(),
});

export interface HfSource {
  dataset: string;
  config: string;
  split: string;
  /** First row (0-based) and how many rows. */
  offset: number;
  length: number;
}

export type HfResult =
  | { ok: true; columns: string[]; rows: SourceRow[]; total: number | null }
  | { ok: false; code: "hf_http" | "hf_network" | "hf_shape"; message: string };

/**
 * Loads a row range of a Hub dataset through the rows API, a page at a time. `fetch` is injected
 * (tests pass one aimed at a local server with the same response shape). Row numbers are 1-based
 * dataset rows, so a bad row can be found in the viewer.
 */
export async function loadHfRows(
  source: HfSource,
  options: { fetch: typeof fetch; base?: string; signal?: AbortSignal },
): Promise<HfResult> {
  const base = (options.base ?? HF_ROWS_BASE).replace(/\/$/, "");
  const rows: SourceRow[] = [];
  let columns: string[] = [];
  let total: number | null = null;
  for (let at = source.offset; at < source.offset + source.length; at += HF_PAGE) {
    const length = Math.min(HF_PAGE, source.offset + source.length - at);
    const query = new URLSearchParams({
      dataset: source.dataset,
      config: source.config,
      split: source.split,
      offset: String(at),
      length: String(length),
    });
    let res: Response;
    try {
      res = await options.fetch(`${base}/rows?${query.toString()}`, { signal: options.signal });
    } catch (e: unknown) {
      const why = e instanceof Error ? e.message : String(e);
      return { ok: false, code: "hf_network", message: `The Hub could not be reached (${why}).` };
    }
    if (!res.ok) {
      let detail = "";
      try {
        const body: unknown = await res.json();
        const parsed = z.object({ error: z.string() }).safeParse(body);
        if (parsed.success) detail = `: ${parsed.data.error}`;
      } catch {
        // no JSON body: the status says enough
      }
      return { ok: false, code: "hf_http", message: `The Hub answered ${res.status}${detail}` };
    }
    const parsed = RowsResponseSchema.safeParse(await res.json().catch(() => null));
    if (!parsed.success)
      return { ok: false, code: "hf_shape", message: "The Hub's answer is not a rows response." };
    if (at === source.offset) columns = parsed.data.features.map((f) => f.name);
    total = parsed.data.num_rows_total ?? total;
    for (const r of parsed.data.rows) rows.push({ line: r.row_idx + 1, values: r.row });
    if (parsed.data.rows.length < length) break; // the split ended
  }
  if (columns.length === 0 && rows[0]) columns = Object.keys(rows[0].values);
  return { ok: true, columns, rows, total };
}
