import type { Access, PlannedStep } from "../schema/workflow.ts";
import { DEFAULT_MAX_STEPS } from "../constants.ts";
import type { ErrorCode, Failure, Result } from "../errors.ts";
import { failure } from "../errors.ts";
import type { ListRead, PyValue } from "./pylist.ts";
import { readPyList } from "./pylist.ts";
import { TextIndex } from "./text-index.ts";

export interface ParseOptions {
  /** Size of the worker pool as shown to the Conductor; valid ids are 0 .. workers - 1. */
  workers: number;
  /** Cap on steps (default 5, the paper's limit). */
  maxSteps?: number;
  /**
   * 0 for the first round; in a refinement round (>= 1, docs/protocol.md §1.6) three empty lists
   * mean "keep".
   */
  round?: number;
}

/** The three lists as the Conductor wrote them, after normalisation. */
export interface ConductorLists {
  model_id: number[];
  subtasks: string[];
  access_list: Access[];
}

/** Steps numbered as the Conductor wrote them (`conductor/ids.ts` maps them to worker ids). */
export type ParseResult = Result<{ steps: PlannedStep[]; lists: ConductorLists }>;

type ListName = keyof ConductorLists;
const LIST_NAMES: readonly ListName[] = ["model_id", "subtasks", "access_list"];

interface Occurrence {
  name: ListName;
  read: ListRead;
}

type Group = Record<ListName, ListRead>;

/**
 * A label is a label only when `[` is the next thing after its `=` or `:` — so "the subtasks: are"
 * in prose is skipped. `access_list` is tried before `access`, and the word boundaries keep a label
 * from matching inside a longer name (`previous_access`, `subtasks_done`).
 */
const LABEL_RE =
  /(?<![A-Za-z0-9_])(model[ _-]?ids?|subtasks?|access[ _-]?lists?|access)(?![A-Za-z0-9_])[ \t"'*`]*[=:][\s*`]*(?=\[)/gi;

function listName(label: string): ListName {
  const lower = label.toLowerCase();
  if (lower.startsWith("model")) return "model_id";
  return lower.startsWith("subtask") ? "subtasks" : "access_list";
}

/**
 * Drops reasoning, fences (only at a line start: ``` inside a subtask stays) and bullets
 * (docs/protocol.md §1.3).
 */
function cleanConductorText(text: string): string {
  let out = text.replace(/<think>[\s\S]*?<\/think>/gi, "\n");
  // A `</think>` with no opening tag: the tag was in the prompt's prefill, so all before is reasoning.
  // (Regex searches, not toLowerCase(), which can change lengths and so shift indices.)
  const close = [...out.matchAll(/<\/think>/gi)].at(-1);
  if (close) out = out.slice(close.index + close[0].length);
  // An unclosed `<think>`: still thinking (streaming) or cut off; nothing inside it is the plan.
  const open = out.search(/<think>/i);
  if (open >= 0) out = out.slice(0, open);
  // Line by line, so that a line inside a triple-quoted subtask keeps its own bullets and fences.
  const lines = out.split("\n");
  let triple: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (triple === null)
      lines[i] = lines[i]!.replace(/^[ \t]*```(?:[\w+-]*[ \t]*(?=\r?$))?/, "").replace(
        /^[ \t]*(?:[-*+•]|\d{1,2}[.)])[ \t]+/,
        "",
      );
    triple = tripleAfter(lines[i]!, triple);
  }
  return lines.join("\n");
}

/**
 * The triple quote still open at the end of `line`, given the one open at its start. A one-quote
 * string ends at the line's end (Python's rule), so an apostrophe in prose reaches no further.
 */
function tripleAfter(line: string, open: string | null): string | null {
  let i = 0;
  while (i < line.length) {
    if (open !== null) {
      const end = line.indexOf(open, i);
      if (end < 0) return open;
      if (escaped(line, end)) {
        i = end + 1;
        continue;
      }
      i = end + 3;
      open = null;
      continue;
    }
    const c = line[i]!;
    if (c !== '"' && c !== "'") {
      i++;
      continue;
    }
    if (line.startsWith(c.repeat(3), i)) {
      open = c.repeat(3);
      i += 3;
      continue;
    }
    // A one-quote string: skip to its closing quote on this line.
    let j = i + 1;
    while (j < line.length && (line[j] !== c || escaped(line, j))) j++;
    i = j + 1;
  }
  return open;
}

/** True when the character at `at` follows an odd number of backslashes. */
function escaped(text: string, at: number): boolean {
  let n = 0;
  for (let k = at - 1; k >= 0 && text[k] === "\\"; k--) n++;
  return n % 2 === 1;
}

/**
 * Every labelled list in order. Reading resumes after a list that parsed, so label words inside its
 * strings ("Compute the access: [i]") are never taken for labels. When `stopAtTruncation`, a list that
 * runs to the end of the text ends the scan: whatever follows is inside it.
 */
function scanLists(text: string, stopAtTruncation: boolean): Occurrence[] {
  const found: Occurrence[] = [];
  const re = new RegExp(LABEL_RE.source, LABEL_RE.flags);
  const index = new TextIndex(text);
  let from = 0;
  for (;;) {
    re.lastIndex = from;
    const match = re.exec(text);
    if (!match?.[1]) return found;
    const open = match.index + match[0].length;
    const read = readPyList(index, open);
    found.push({ name: listName(match[1]), read });
    if (!read.ok && read.truncated && stopAtTruncation) return found;
    from = read.ok ? read.end : open + 1;
  }
}

/** Triples in writing order (model_id, then subtasks, then access_list), the last one first. */
function candidateGroups(found: Occurrence[]): Group[] {
  const groups: Group[] = [];
  // next[name][k]: the first occurrence of `name` after position k (linear, however many labels).
  const next = (name: ListName): number[] => {
    const out = Array<number>(found.length + 1).fill(-1);
    for (let k = found.length - 1; k >= 0; k--) {
      out[k] = found[k + 1]?.name === name ? k + 1 : (out[k + 1] ?? -1);
    }
    return out;
  };
  const nextSubtasks = next("subtasks");
  const nextAccess = next("access_list");
  for (let i = found.length - 1; i >= 0; i--) {
    const m = found[i];
    if (m?.name !== "model_id") continue;
    // -1 (none) indexes nothing: found[-1] and nextAccess[-1] are undefined.
    const s = nextSubtasks[i] ?? -1;
    const [sub, acc] = [found[s], found[nextAccess[s] ?? -1]];
    if (sub && acc) groups.push({ model_id: m.read, subtasks: sub.read, access_list: acc.read });
  }
  if (groups.length > 0) return groups;
  // Written in another order: fall back to the latest list of each name.
  const latest = (name: ListName) => found.findLast((o) => o.name === name)?.read;
  const [m, s, a] = LIST_NAMES.map(latest);
  return m && s && a ? [{ model_id: m, subtasks: s, access_list: a }] : [];
}

/** A failure as a Result value. */
const fail = (code: ErrorCode, detail: string): { ok: false } & Failure => ({
  ok: false,
  ...failure(code, detail),
});

/** The error for output with no complete triple: the first list that is absent or unreadable. */
function missingOrUnreadable(found: Occurrence[]): { ok: false } & Failure {
  for (const name of LIST_NAMES) {
    const last = found.findLast((o) => o.name === name)?.read;
    if (!last) return fail("missing_list", `${name} (expected a line like "${name} = [...]").`);
    if (!last.ok) return fail("unparseable_list", `${name}: ${last.reason}.`);
  }
  return fail("missing_list", "model_id, subtasks and access_list.");
}

const show = (value: PyValue): string => JSON.stringify(value);
const stepLabel = (index: number): string => `step ${index + 1} (index ${index})`;

/** A non-negative integer, also when written as a digit string ("2"). */
function asIndex(value: PyValue): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? value : undefined;
  if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) return Number(value);
  return undefined;
}

function isAll(value: PyValue): boolean {
  return typeof value === "string" && value.trim().toLowerCase() === "all";
}

/** Normalises one access entry: "all", ["all"], [] or earlier indices (sorted, without repeats). */
function readAccess(value: PyValue, index: number): Access | undefined {
  if (isAll(value)) return "all";
  if (!Array.isArray(value)) return undefined;
  if (value.length === 1 && value[0] !== undefined && isAll(value[0])) return "all";
  const indices: number[] = [];
  for (const entry of value) {
    const i = asIndex(entry);
    if (i === undefined || i >= index) return undefined;
    indices.push(i);
  }
  return [...new Set(indices)].sort((x, y) => x - y);
}

/** Checks and normalises step `index`; each step is valid on its own given its position. */
function readStep(
  worker: PyValue,
  subtask: PyValue,
  access: PyValue,
  index: number,
  workers: number,
): Result<{ step: PlannedStep }> {
  const id = asIndex(worker);
  if (id === undefined || id >= workers) {
    const range = workers > 0 ? `ids 0 to ${workers - 1}` : "no workers";
    return fail(
      "bad_worker",
      `${stepLabel(index)} has model id ${show(worker)}; the pool has ${range}.`,
    );
  }
  if (typeof subtask !== "string") {
    return fail(
      "unparseable_list",
      `subtasks: ${stepLabel(index)} is ${show(subtask)}, not a string.`,
    );
  }
  const text = subtask.trim();
  if (text === "") return fail("empty_subtask", `${stepLabel(index)} has no instruction.`);
  const seen = readAccess(access, index);
  if (seen === undefined) {
    const earlier =
      index === 0
        ? 'it is the first step, so only [] or "all"'
        : `earlier indices are 0 to ${index - 1}`;
    return fail("bad_access", `${stepLabel(index)} has access ${show(access)}; ${earlier}.`);
  }
  return { ok: true, step: { worker: id, subtask: text, access: seen } };
}

function buildWorkflow(group: Group, options: ParseOptions): ParseResult {
  const values: Partial<Record<ListName, PyValue[]>> = {};
  for (const name of LIST_NAMES) {
    const read = group[name];
    if (!read.ok) return fail("unparseable_list", `${name}: ${read.reason}.`);
    values[name] = read.value;
  }
  const { model_id: ids = [], subtasks = [], access_list: access = [] } = values;
  if (ids.length !== subtasks.length || ids.length !== access.length) {
    return fail(
      "length_mismatch",
      `model_id has ${ids.length}, subtasks ${subtasks.length}, access_list ${access.length}.`,
    );
  }
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (ids.length === 0 && (options.round ?? 0) < 1) {
    return fail("no_steps", "(model_id, subtasks and access_list are all empty)");
  }
  if (ids.length > maxSteps) {
    return fail("too_many_steps", `${ids.length} steps (model_id), at most ${maxSteps} allowed.`);
  }
  const steps: PlannedStep[] = [];
  for (const [i, id] of ids.entries()) {
    const step = readStep(id, subtasks[i] ?? null, access[i] ?? null, i, options.workers);
    if (!step.ok) return step;
    steps.push(step.step);
  }
  const lists: ConductorLists = {
    model_id: steps.map((s) => s.worker),
    subtasks: steps.map((s) => s.subtask),
    access_list: steps.map((s) => s.access),
  };
  return { ok: true, steps, lists };
}

/**
 * Parses a Conductor completion per docs/protocol.md §1.3: the last triple of lists that parses and
 * validates, or the error of the last triple written. Never throws.
 */
export function parseConductorOutput(text: string, options: ParseOptions): ParseResult {
  const found = scanLists(cleanConductorText(text), false);
  const groups = candidateGroups(found);
  const [last] = groups;
  if (!last) return missingOrUnreadable(found);
  for (const group of groups) {
    const result = buildWorkflow(group, options);
    if (result.ok) return result;
  }
  return buildWorkflow(last, options);
}

/**
 * For streaming: the steps of the triple being written whose three entries are already complete.
 * Best effort and never throws; stops at the first step that is not valid on its own.
 */
export function parsePartialSteps(text: string, options: ParseOptions): PlannedStep[] {
  const found = scanLists(cleanConductorText(text), true);
  const m = found.findLastIndex((o) => o.name === "model_id");
  const s = m < 0 ? -1 : found.findIndex((o, k) => k > m && o.name === "subtasks");
  const a = s < 0 ? -1 : found.findIndex((o, k) => k > s && o.name === "access_list");
  let triple = [found[m], found[s], found[a]];
  // Another writing order is followed only when unambiguous, so a draft's lists are never mixed in.
  if (a < 0) {
    const byName = LIST_NAMES.map((name) => found.filter((o) => o.name === name));
    triple = byName.every((list) => list.length === 1) ? byName.map((list) => list[0]) : [];
  }
  const [ids, subtasks, access] = triple.map((o) =>
    !o ? undefined : o.read.ok ? o.read.value : o.read.items,
  );
  if (!ids || !subtasks || !access) return [];
  const count = Math.min(
    ids.length,
    subtasks.length,
    access.length,
    options.maxSteps ?? DEFAULT_MAX_STEPS,
  );
  const steps: PlannedStep[] = [];
  for (let i = 0; i < count; i++) {
    const step = readStep(
      ids[i] ?? null,
      subtasks[i] ?? null,
      access[i] ?? null,
      i,
      options.workers,
    );
    if (!step.ok) break;
    steps.push(step.step);
  }
  return steps;
}

/** A streaming view's reader of a growing completion (see `createPartialPlanReader`). */
export interface PartialPlanReader {
  /** The steps complete so far in `text`, the whole completion up to now. */
  read(text: string): PlannedStep[];
}

/**
 * For a streaming view that reads every prefix of a completion: `parsePartialSteps`, re-run while
 * the text is short whenever an entry may have completed (a `,`, `]`, `)` or `>` arrived), then
 * only once it has grown by an eighth of what was last parsed, so the work over the whole stream
 * stays linear in its length however small the deltas are. Steps of an ordinary plan appear at
 * once; in a runaway output they lag by at most an eighth of it.
 */
export function createPartialPlanReader(options: ParseOptions): PartialPlanReader {
  let parsedLength = -1;
  let checkedLength = 0;
  let steps: PlannedStep[] = [];
  return {
    read(text) {
      if (text.length < checkedLength) parsedLength = -1; // a retry started the text over
      if (parsedLength >= 0) {
        // Short: only once an entry may have completed (a separator or a closing tag arrived).
        const fresh = text.slice(checkedLength);
        checkedLength = text.length;
        if (parsedLength < 4096 && !/[,\])>]/.test(fresh)) return steps;
        if (parsedLength >= 4096 && text.length - parsedLength < parsedLength / 8) return steps;
      }
      checkedLength = text.length;
      parsedLength = text.length;
      steps = parsePartialSteps(text, options);
      return steps;
    },
  };
}
