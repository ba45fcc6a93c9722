import { z } from "zod";
import type { HfResult, HfSource } from "./hf.ts";
import { loadHfRows } from "./hf.ts";

/** The Hub's dataset API, which names the commit a dataset's main branch is at. */
export const HF_HUB_BASE = "https://huggingface.co";

/** A Hugging Face source as an evaluation records it: the rows read and the commit read at. */
export const HfSourceSchema = z.object({
  kind: z.literal("hf"),
  dataset: z.string().min(1),
  config: z.string().min(1),
  split: z.string().min(1),
  offset: z.number().int().nonnegative(),
  length: z.number().int().positive(),
  /** The dataset's commit when its rows were read (the Hub's `sha`); null if the Hub gave none. */
  revision: z.string().nullable(),
});
export type HfRecordedSource = z.infer<typeof HfSourceSchema>;

const InfoSchema = z.object({ sha: z.string().min(7) });

type Fetch = typeof fetch;

/** The commit the dataset is at now, or a coded failure. */
export async function hfRevision(
  dataset: string,
  o: { fetch: Fetch; hub?: string; signal?: AbortSignal },
): Promise<
  | { ok: true; revision: string }
  | { ok: false; code: "hf_http" | "hf_network" | "hf_shape"; message: string }
> {
  const hub = (o.hub ?? HF_HUB_BASE).replace(/\/$/, "");
  const path = dataset.split("/").map(encodeURIComponent).join("/");
  let res: Response;
  try {
    res = await o.fetch(`${hub}/api/datasets/${path}`, { signal: o.signal });
  } catch (e: unknown) {
    const why = e instanceof Error ? e.message : String(e);
    return { ok: false, code: "hf_network", message: `The Hub could not be reached (${why}).` };
  }
  if (!res.ok)
    return { ok: false, code: "hf_http", message: `The Hub's dataset API answered ${res.status}.` };
  const parsed = InfoSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success)
    return { ok: false, code: "hf_shape", message: "The Hub's dataset API gave no revision." };
  return { ok: true, revision: parsed.data.sha };
}

export type PinnedResult =
  | (Extract<HfResult, { ok: true }> & { source: HfRecordedSource })
  | Extract<HfResult, { ok: false }>
  | { ok: false; code: "hf_revision_moved"; message: string };

/**
 * Reads a row range and records the commit it was read at. With `pinned` (a revision recorded
 * earlier), the read is refused when the dataset has moved on: the public rows API serves only the
 * latest revision, so a re-read at another commit would silently change the questions.
 */
export async function loadPinnedHfRows(
  source: HfSource,
  o: { fetch: Fetch; base?: string; hub?: string; signal?: AbortSignal; pinned?: string | null },
): Promise<PinnedResult> {
  const rev = await hfRevision(source.dataset, o);
  if (!rev.ok && o.pinned) return rev;
  const revision = rev.ok ? rev.revision : null;
  if (o.pinned && revision !== o.pinned)
    return {
      ok: false,
      code: "hf_revision_moved",
      message: `${source.dataset} is now at revision ${revision?.slice(0, 12)}, not the pinned ${o.pinned.slice(0, 12)}: the questions may differ. Load it again without the pin to read the new revision as a new question set.`,
    };
  const rows = await loadHfRows(source, o);
  if (!rows.ok) return rows;
  return { ...rows, source: { kind: "hf", ...source, revision } };
}
