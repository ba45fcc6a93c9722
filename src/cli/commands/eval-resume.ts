// Resuming an eval is only safe when it is the same evaluation: same questions, strategies, pool,
// Conductor settings and scorer. Otherwise the old results would be mixed with new ones silently.
import { readFile, rename, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { z } from "zod";
import type { Evaluation } from "../../engine/eval/schema.ts";
import { EvaluationSchema, upgradeEvaluation } from "../../engine/eval/schema.ts";
import { oldScorerNote } from "../../engine/eval/code/scorer.ts";
import { strategyName } from "../../engine/eval/strategy.ts";
import { outputProblem } from "../output-paths.ts";
import { trainerShapeFiles } from "./eval-files.ts";

/** What a shard's sidecar records: which shard, and every item id of the dataset, in order. */
const ShardRecordSchema = z.object({
  index: z.number().int().nonnegative(),
  count: z.number().int().positive(),
  /** The dataset's item ids: eval-merge names the cells no shard finished, in the dataset's order. */
  items: z.array(z.string()),
});
type ShardRecord = z.infer<typeof ShardRecordSchema>;

/** Settings of the CLI run that change answers but live outside the Evaluation record. */
const RunSettingsSchema = z.object({
  namedWorkers: z.boolean(),
  maxCalls: z.number().int().positive().nullable(),
});
export type RunSettings = z.infer<typeof RunSettingsSchema>;

/**
 * The definition as stored beside --out (`<out>.eval.json`): with the hash of what makes it this
 * evaluation (eval-shard.ts) and, for a shard's file, which shard it holds.
 */
export type StoredDefinition = Evaluation & {
  runSettings?: RunSettings;
  definitionHash?: string;
  shard?: ShardRecord;
};

export interface DefinitionChange {
  /** "scorer" changes could be applied to the stored answers; "run" changes need new runs. */
  kind: "scorer" | "run";
  text: string;
}

/** JSON with sorted keys, so equal values print equal whatever their key order. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, x]) => `${JSON.stringify(k)}:${stable(x)}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

/** `key: old → new` for each top-level field that differs. */
function fieldChanges(before: object, after: object): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  return keys
    .filter((k) => stable(b[k]) !== stable(a[k]))
    .map((k) => `${k} ${stable(b[k] ?? null)} → ${stable(a[k] ?? null)}`);
}

/** What differs between the stored definition and this command's, in words; [] when it is the same. */
export function definitionChanges(
  before: StoredDefinition,
  after: StoredDefinition,
): DefinitionChange[] {
  const out: DefinitionChange[] = [];
  const run = (text: string) => out.push({ kind: "run", text });
  if (before.dataset.hash !== after.dataset.hash)
    run(`the questions: another dataset (hash ${before.dataset.hash} → ${after.dataset.hash})`);
  if (before.seed !== after.seed) run(`--seed ${before.seed} → ${after.seed}`);
  const stored = new Map(before.strategies.map((s) => [strategyName(s), s]));
  for (const s of after.strategies) {
    const old = stored.get(strategyName(s));
    // A strategy added or dropped is fine: new ones run, dropped ones are left out of the report.
    if (old && stable(old) !== stable(s))
      run(`strategy ${strategyName(s)}: ${fieldChanges(old, s).join(", ")}`);
  }
  const workers = (e: Evaluation) =>
    e.pool.map(({ id: _id, headers: _h, ...w }) => w as Record<string, unknown>);
  const [wb, wa] = [workers(before), workers(after)];
  if (stable(wb.map((w) => w.name)) !== stable(wa.map((w) => w.name)))
    run(`the pool: ${wb.map((w) => w.name).join(", ")} → ${wa.map((w) => w.name).join(", ")}`);
  else
    wa.forEach((w, i) => {
      const changed = fieldChanges(wb[i] ?? {}, w);
      if (changed.length) run(`worker "${String(w.name)}": ${changed.join(", ")}`);
    });
  const conductor = (e: Evaluation) => {
    const { headers: _h, ...c } = e.conductor ?? { headers: undefined };
    return c;
  };
  const conductorChanged = fieldChanges(conductor(before), conductor(after));
  if (conductorChanged.length) run(`the Conductor: ${conductorChanged.join(", ")}`);
  const settings = (e: StoredDefinition) =>
    e.runSettings ?? { namedWorkers: false, maxCalls: null };
  const settingsChanged = fieldChanges(settings(before), settings(after));
  if (settingsChanged.length) run(`config: ${settingsChanged.join(", ")}`);
  const shard = (e: StoredDefinition) => (e.shard ? `${e.shard.index}/${e.shard.count}` : "none");
  if (shard(before) !== shard(after)) run(`--shard ${shard(before)} → ${shard(after)}`);
  const scorerChanged = fieldChanges(before.scorer, after.scorer);
  if (scorerChanged.length)
    out.push({ kind: "scorer", text: `scorer: ${scorerChanged.join(", ")}` });
  return out;
}

/**
 * The message refusing to resume, naming what changed and the ways on.
 * When every change is of kind "scorer", it offers `--rescore`: the stored answers can be scored
 * again without paying for new runs.
 */
export function mismatchMessage(out: string, changes: readonly DefinitionChange[]): string {
  const list = changes.map((c) => `  - ${c.text}`).join("\n");
  const rescore = changes.every((c) => c.kind === "scorer")
    ? ` Only the scorer changed, so eval --rescore --out ${out} can score the stored answers again without calling a model.`
    : "";
  return (
    `${out} holds results of a different evaluation; resuming would mix them. What changed:\n${list}\n` +
    `Run again with --new to start over (the earlier results are kept, renamed), or choose another --out.${rescore}`
  );
}

/** Moves each existing file aside as `<file>.replaced-<time>` (for --new); returns the new names. */
async function moveAside(files: readonly string[], now = new Date()): Promise<string[]> {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const moved: string[] = [];
  for (const f of files) {
    if (!(await stat(f).catch(() => null))) continue;
    await rename(f, `${f}.replaced-${stamp}`);
    moved.push(`${f}.replaced-${stamp}`);
  }
  return moved;
}

/** Reads the definition stored beside --out: null when there is none, "bad" when unreadable. */
export async function storedDefinition(sidecar: string): Promise<StoredDefinition | null | "bad"> {
  const text = await readFile(sidecar, "utf8").catch(() => null);
  if (text === null) return null;
  try {
    const raw: unknown = JSON.parse(text);
    const parsed = EvaluationSchema.safeParse(upgradeEvaluation(raw));
    if (!parsed.success) return "bad";
    // Written by this version and later; absent in older definitions (compared as the defaults).
    const settings = z
      .object({
        runSettings: RunSettingsSchema.optional(),
        definitionHash: z.string().optional(),
        shard: ShardRecordSchema.optional(),
      })
      .safeParse(raw);
    if (!settings.success) return "bad";
    return { ...parsed.data, ...settings.data };
  } catch {
    return "bad";
  }
}

/** The definition's file: it sits beside --out, and a resumed run must be the same evaluation. */
export function sidecarOf(out: string): string {
  return `${out}.eval.json`;
}

/** Where an evaluation writes, and what it reads (neither may be written over). */
export interface EvalFiles {
  out: string;
  trainingFile: string | undefined;
  inputs: string[];
  /** --new: the earlier files are moved aside instead of resumed. */
  fresh: boolean;
}

/**
 * Checks that the evaluation can start here: its files are writable, and what they hold is either
 * moved aside (--new) or results of this same evaluation. Returns the refusal, or null.
 */
export async function startOrResume(
  f: EvalFiles,
  evaluation: StoredDefinition,
  stderr: (s: string) => void,
): Promise<string | null> {
  const { out, trainingFile } = f;
  const sidecar = sidecarOf(out);
  const trainingFiles = trainingFile ? [trainingFile, ...trainerShapeFiles(trainingFile)] : [];
  if (trainingFile && resolve(trainingFile) === resolve(out))
    return "--training-data and --out must be different files.";
  const unwritable = await outputProblem([out, sidecar, ...trainingFiles], f.inputs);
  if (unwritable) return unwritable;
  const before = await storedDefinition(sidecar);
  if (f.fresh) {
    const moved = await moveAside([out, sidecar, ...trainingFiles]);
    if (moved.length)
      stderr(`Starting over (--new); the earlier files are now ${moved.join(", ")}.\n`);
  } else if (before === "bad") {
    return `${sidecar} cannot be read, so ${out} cannot be resumed safely. Run again with --new to start over (the earlier results are kept, renamed), or choose another --out.`;
  } else if (before) {
    const stale = oldScorerNote(before.scorer);
    if (stale)
      return `${out}: ${stale} Run again with --new, or use a new --out, to score with the new one.`;
    const changes = definitionChanges(before, evaluation);
    if (changes.length) return mismatchMessage(out, changes);
  }
  return null;
}
