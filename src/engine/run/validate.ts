import type { Result } from "../errors.ts";
import { failure } from "../errors.ts";
import { parseBoundedJson } from "../pool/depth.ts";
import { redactOwner } from "../pool/headers.ts";
import { poolProblem } from "../pool/invariants.ts";
import { withoutSecrets } from "../pool/transfer.ts";
import { clip, isObject } from "../schema/guards.ts";
import type { RoundRecord, RunRecord } from "../schema/record.ts";
import type { Access } from "../schema/workflow.ts";
import { importRunDocument } from "./export.ts";

/**
 * The protocol's invariants (docs/protocol.md §1.1, §1.6), checked on an imported run after its
 * schema: what the schema alone lets through. A file that breaks one is refused with the exact
 * problem.
 */

/** The deepest self-selection a file may hold; the app's settings offer far less. */
export const MAX_NESTING = 8;
/** How many problems a refusal lists. */
const LISTED = 3;
/** The longest refusal message. */
const MESSAGE_CHARS = 400;

/** What a run breaks (refused) and what is only worth telling (opened, with the note shown). */
export interface RunCheck {
  problems: string[];
  notes: string[];
}

function sameAccess(a: Access | undefined, b: Access): boolean {
  if (a === undefined) return false;
  if (a === "all" || b === "all") return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function accessProblem(access: Access, index: number): string | null {
  if (access === "all") return null;
  const bad = access.find((i) => i >= index);
  if (bad === undefined) return null;
  return bad === index
    ? `its access names the step itself (${bad}); a step sees only earlier steps.`
    : `its access names a later step (${bad}); a step sees only earlier steps.`;
}

function checkRounds(
  record: RunRecord,
  rounds: readonly RoundRecord[],
  where: string,
  depth: number,
  out: RunCheck,
): void {
  const poolSize = record.pool.length;
  const ids = new Set(record.pool.map((w) => w.id));
  // A step's worker by the name it recorded, unless a pool worker has that name (then its id).
  const names = new Set(record.pool.map((w) => w.name));
  const nameOf = (st: { worker: string; workerName?: string }) =>
    st.workerName && !names.has(st.workerName) ? st.workerName : st.worker;
  for (const [r, round] of rounds.entries()) {
    // Rounds and steps are counted from 1, as the studio shows them.
    const at = `${where}round ${r + 1}`;
    if (round.index !== r) out.problems.push(`${at} is numbered ${round.index}.`);
    if (round.steps.length > record.maxSteps)
      out.problems.push(
        `${at} has ${round.steps.length} steps, more than the cap of ${record.maxSteps}.`,
      );
    const lists = round.lists;
    if (lists) {
      const n = lists.model_id.length;
      if (lists.subtasks.length !== n || lists.access_list.length !== n)
        out.problems.push(
          `${at}: its three lists have different lengths (${n}, ${lists.subtasks.length}, ${lists.access_list.length}).`,
        );
      if (n > record.maxSteps)
        out.problems.push(
          `${at}: its lists have ${n} entries, more than the cap of ${record.maxSteps}.`,
        );
      const shown = lists.workerIds.length;
      lists.model_id.forEach((m, i) => {
        if (m < 0 || m >= shown)
          out.problems.push(
            `${at}: model_id[${i}] is ${m}, not one of the ${shown} workers its prompt showed.`,
          );
      });
      const strange = lists.workerIds.find((id) => !ids.has(id));
      // The lists are history: a worker the Conductor was shown may have left the pool since.
      // It is named as the steps that ran on it recorded it (an id means nothing to a user).
      if (strange !== undefined) {
        const ran = round.steps.find((st) => st.worker === strange);
        const name = ran ? nameOf(ran) : undefined;
        out.notes.push(
          `${at}: the Conductor was shown ${name ? JSON.stringify(clip(name, 40)) : "a worker"} (Model id ${lists.workerIds.indexOf(strange)}), which is no longer in the pool.`,
        );
      }
      lists.access_list.forEach((a, i) => {
        const p = accessProblem(a, i);
        if (p) out.problems.push(`${at}: access_list[${i}]: ${p}`);
      });
      const differs = round.steps
        .map((st, i) =>
          lists.workerIds[lists.model_id[i] ?? -1] === st.worker &&
          lists.subtasks[i] === st.subtask &&
          sameAccess(lists.access_list[i], st.access)
            ? -1
            : i,
        )
        .filter((i) => i >= 0);
      if (differs.length > 0 || (round.steps.length > 0 && n !== round.steps.length))
        out.notes.push(
          `${at}: the steps that ran differ from the Conductor's lists` +
            (differs.length ? ` at step ${differs.map((i) => i + 1).join(", ")}` : "") +
            " (edited after planning).",
        );
    }
    for (const [s, step] of round.steps.entries()) {
      const st = `${at}, step ${s + 1}`;
      if (step.index !== s) out.problems.push(`${st} is numbered ${step.index}.`);
      // A step that never ran may lack a worker (an exported sketch): it opens asking for one.
      if (!ids.has(step.worker))
        (step.status === "idle" ? out.notes : out.problems).push(
          step.worker === ""
            ? `${st} has no worker chosen yet.`
            : `${st}: its worker ${JSON.stringify(clip(nameOf(step), 40))} is not one of the ${poolSize} in the pool.`,
        );
      const p = accessProblem(step.access, s);
      if (p) out.problems.push(`${st}: ${p}`);
      // docs/protocol.md §1.3: a subtask must say something. An unwritten one ("") in a sketch that
      // never ran opens like a missing worker; whitespace, or an empty subtask that ran, is
      // refused.
      if (step.subtask.trim() === "") {
        if (step.subtask === "" && step.status === "idle")
          out.notes.push(`${st} has no subtask yet.`);
        else out.problems.push(`${st} has an empty subtask (only whitespace).`);
      }
      const nested = step.nested;
      if (!nested) continue;
      if (record.pool.find((w) => w.id === step.worker)?.kind !== "conductor")
        out.problems.push(`${st} holds a nested workflow, but its worker is not the Conductor.`);
      if (nested.depth !== depth + 1)
        out.problems.push(
          `${st}: its nested workflow says depth ${nested.depth}, not ${depth + 1}.`,
        );
      if (depth + 1 > MAX_NESTING)
        out.problems.push(`${st}: nested workflows go deeper than ${MAX_NESTING} levels.`);
      else checkRounds(record, nested.rounds, `${st} › nested `, depth + 1, out);
    }
  }
}

/** Every invariant a valid run record breaks, and what merely deserves a note. */
export function checkRun(record: RunRecord): RunCheck {
  const out: RunCheck = { problems: [], notes: [] };
  const pool = poolProblem(record.pool);
  if (pool) out.problems.push(`the pool: ${pool}`);
  checkRounds(record, record.rounds, "", 0, out);
  return out;
}

/** A version 1 file cannot hold nested workflows: one that does is mislabelled, not migratable. */
function shapeProblem(doc: Record<string, unknown>): string | null {
  if (doc.version !== 1 || !isObject(doc.run) || !Array.isArray(doc.run.rounds)) return null;
  for (const [r, round] of doc.run.rounds.entries()) {
    if (!isObject(round) || !Array.isArray(round.steps)) continue;
    for (const [s, step] of round.steps.entries())
      if (isObject(step) && step.nested !== undefined && step.nested !== null)
        return (
          `it says version 1, but round ${r + 1}, step ${s + 1} holds a nested workflow, which version 1 ` +
          "files cannot: it looks like a newer file with the wrong version. Nothing was migrated."
        );
  }
  return null;
}

/**
 * Reads an export strictly: bounded nesting before any validation, the format's schema and
 * migrations (export.ts), then the protocol's invariants. The pool's secret header values are
 * dropped (an imported file never supplies a secret). Never throws on user data; a refusal quotes
 * at most a short piece of the file.
 */
export function importRunChecked(
  text: string,
): Result<{ record: RunRecord; migratedFrom: number | null; notes: string[] }> {
  const refuse = (code: "invalid_file", detail: string) => ({
    ok: false as const,
    ...failure(code, clip(detail, MESSAGE_CHARS)),
  });
  const parsed = parseBoundedJson(text);
  if (!parsed.ok) return parsed;
  const doc = parsed.doc;
  if (isObject(doc)) {
    const shape = shapeProblem(doc);
    if (shape) return refuse("invalid_file", shape);
  }
  const read = importRunDocument(doc);
  if (!read.ok) return { ...read, message: clip(read.message, MESSAGE_CHARS) };
  const check = checkRun(read.record);
  if (check.problems.length > 0) {
    const more = check.problems.length - LISTED;
    const listed = check.problems.slice(0, LISTED).join(" ");
    return refuse("invalid_file", more > 0 ? `${listed} (and ${more} more)` : listed);
  }
  const record: RunRecord = {
    ...read.record,
    pool: read.record.pool.map(withoutSecrets),
    conductor: read.record.conductor && redactOwner(read.record.conductor),
  };
  return { ok: true, record, migratedFrom: read.migratedFrom, notes: check.notes };
}
