// Question sets from the Hugging Face Hub for the studio's evaluation form.
import type { HfSource } from "../../engine/eval/dataset/hf.ts";
import { hubFetch } from "../../engine/eval/dataset/hf-auth.ts";
import { HF_ROWS_BASE } from "../../engine/eval/dataset/hf.ts";
import { HF_HUB_BASE, loadPinnedHfRows } from "../../engine/eval/dataset/hf-pin.ts";
import { HF_TOKEN_ID, boundKey } from "../slices/keybinding.ts";
import type { BenchmarkPreset } from "../../engine/eval/dataset/presets.ts";
import { presetRows } from "../../engine/eval/dataset/preset-rows.ts";
import { DEFAULT_COLUMNS } from "../../engine/eval/dataset/item-schema.ts";
import { loadQuestionText } from "./evalController.ts";
import { useStudio } from "../slices/store.ts";

/** Where the studio reads the Hub (tests point it at the local server). */
export const hfEndpoints: { base?: string; hub?: string } = {};

/** The Hugging Face token, when one is held for the Hub's origin. */
function hubToken(): string | undefined {
  return boundKey(useStudio.getState(), HF_TOKEN_ID);
}

/**
 * Loads a Hugging Face row range into the setup form and records the commit it was read at; with
 * `pinned`, a dataset that has moved on is refused. A preset also sets its mapping, scorer and
 * answer-format instruction. Returns the message to show, or null when loaded.
 */
export async function loadHfQuestions(
  source: HfSource,
  pinned: string | null,
  preset?: BenchmarkPreset,
): Promise<string | null> {
  const token = hubToken();
  if (preset?.gated && !token)
    return `${preset.name} is gated on the Hugging Face Hub: accept its terms there, then enter your Hugging Face token above.`;
  const bases = [hfEndpoints.base ?? HF_ROWS_BASE, hfEndpoints.hub ?? HF_HUB_BASE];
  const r = await loadPinnedHfRows(source, {
    fetch: hubFetch((...a) => fetch(...a), token, bases),
    pinned,
    ...hfEndpoints,
  });
  if (!r.ok) return r.message;
  const revision = r.source.revision ? { revision: r.source.revision } : {};
  const shaped = preset ? await presetRows(preset, r.rows, revision) : { rows: r.rows, bad: [] };
  if (shaped.bad.length) {
    const first = shaped.bad[0]!;
    return `${shaped.bad.length} row(s) of ${source.dataset} cannot be read (row ${first.line}: ${first.message}).`;
  }
  const rows = shaped.rows;
  const rev = r.source.revision ? ` @ ${r.source.revision.slice(0, 12)}` : "";
  loadQuestionText(
    JSON.stringify(rows.map((row) => row.values)),
    `${source.dataset} (${source.config}/${source.split})${rev}`,
  );
  useStudio.getState().patchEvalSetup({
    hfSource: r.source,
    benchmark: null,
    ...(preset
      ? {
          mapping: { ...DEFAULT_COLUMNS, ...preset.mapping },
          scorer: preset.scorer,
          profile: preset.profile ?? "",
          instruction: preset.instruction,
          benchmark: { id: preset.id, name: preset.name },
        }
      : {}),
  });
  return null;
}
