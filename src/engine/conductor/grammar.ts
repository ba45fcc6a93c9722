/**
 * A grammar for the Conductor's output (docs/protocol.md §2, "Constrained plans"), in the EBNF
 * dialect of xgrammar (WebLLM's `response_format: { type: "grammar" }`, vLLM's structured outputs,
 * SGLang's `ebnf`). Decoding under it, a plan always has the shape of docs/protocol.md §1.2 and
 * fits the pool:
 *
 *   <opening><reasoning>\n
 *   model_id = [...]
 *   subtasks = [...]
 *   access_list = [...]
 *
 * with k = 1..maxSteps entries in each list (enumerated per k, so the lengths are equal), ids in
 * 0..workers-1, non-empty double-quoted subtasks with JSON escapes, and access entries `[]`,
 * `["all"]` or strictly increasing earlier indices. A refinement round also allows the three
 * empty lists. The reasoning is free text of bounded length without `[` (so no draft list in it can
 * be taken for the plan) and without tags (`<think>` would hide the plan from the parser).
 * Whatever the grammar cannot express is left to the parser, which stays the judge.
 */
import { DEFAULT_MAX_STEPS } from "../constants.ts";

export interface PlanGrammarOptions {
  /** Pool size as shown to the Conductor: ids 0..workers-1. */
  workers: number;
  /** Cap on steps (default 5). */
  maxSteps?: number;
  /** 0 for the first round; >= 1 also allows the three empty lists (keep the answer). */
  round?: number;
  /** Fixed text the output starts with (the prompt's opening); "" or absent for none. */
  opening?: string;
  /** Cap on the reasoning's length in characters (default 3000). */
  maxReasoningChars?: number;
  /** Cap on one subtask's length in characters (default 2000). */
  maxSubtaskChars?: number;
}

export const DEFAULT_REASONING_CHARS = 3000;
export const DEFAULT_SUBTASK_CHARS = 2000;

/** An EBNF string literal: quotes, backslashes and control characters escaped. */
export function ebnfLiteral(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `"${out}"`;
}

const alternatives = (items: string[]): string => items.join(" | ");

/** Rules for the access entry of step `i`: [], ["all"], or increasing indices below i. */
function accessRules(i: number): string[] {
  const base = `"[]" | "[\\"all\\"]"`;
  if (i === 0) return [`access_0 ::= ${base}`];
  const rules = [`access_${i} ::= ${base} | "[" indices_${i} "]"`];
  const start = (j: number) => (j < i - 1 ? `"${j}" more_${i}_${j}` : `"${j}"`);
  rules.push(`indices_${i} ::= ${alternatives([...Array(i).keys()].map(start))}`);
  // more_i_j: what may follow index j inside step i's entry: nothing, or a larger earlier index.
  for (let j = 0; j < i - 1; j++) {
    const next = [];
    for (let m = j + 1; m < i; m++) next.push(start(m));
    rules.push(`more_${i}_${j} ::= (sep (${alternatives(next)}))?`);
  }
  return rules;
}

/** The three lists with exactly `k` entries each. */
function planRule(k: number): string {
  const ids = Array<string>(k).fill("id").join(" sep ");
  const subtasks = Array<string>(k).fill("subtask").join(" sep ");
  const access = [...Array(k).keys()].map((i) => `access_${i}`).join(" sep ");
  return (
    `plan_${k} ::= "model_id = [" ${ids} "]\\nsubtasks = [" ${subtasks} ` +
    `"]\\naccess_list = [" ${access} "]"`
  );
}

/**
 * The EBNF grammar (root rule `root`) for one Conductor call: see the module comment. Total: a pool
 * of no workers or a cap of no steps leaves only the empty lists (which the parser then judges).
 */
export function buildPlanGrammar(o: PlanGrammarOptions): string {
  const workers = Math.max(0, Math.floor(o.workers));
  const steps = workers > 0 ? Math.max(0, Math.floor(o.maxSteps ?? DEFAULT_MAX_STEPS)) : 0;
  const round = o.round ?? 0;
  const reasoning = Math.max(0, Math.floor(o.maxReasoningChars ?? DEFAULT_REASONING_CHARS));
  const subtask = Math.max(1, Math.floor(o.maxSubtaskChars ?? DEFAULT_SUBTASK_CHARS));
  const plans = [...Array(steps).keys()].map((k) => `plan_${k + 1}`);
  if (round >= 1 || plans.length === 0) plans.push("keep");
  const opening = o.opening ? `${ebnfLiteral(o.opening)} ` : "";
  const rules = [
    `# Conductor plan: ${workers} workers (ids 0..${Math.max(0, workers - 1)}), at most ${steps} steps, round ${round}.`,
    `root ::= ${opening}reasoning "\\n" plans "\\n"?`,
    `reasoning ::= reasoning_char{0,${reasoning}}`,
    // No "[" (no draft lists) and no tags: "<" only before a space, digit, "=" or ">".
    `reasoning_char ::= [^[<] | "<" [ 0-9=>]`,
    `plans ::= ${plans.join(" | ")}`,
    `keep ::= "model_id = []\\nsubtasks = []\\naccess_list = []"`,
    `sep ::= "," " "?`,
  ];
  if (workers > 0 && steps > 0) {
    rules.push(`id ::= ${alternatives([...Array(workers).keys()].map((i) => `"${i}"`))}`);
    // Non-empty after trimming: at least one character that is neither space nor a space escape.
    rules.push(`subtask ::= "\\"" [ \\t]{0,8} solid_char str_char{0,${subtask - 1}} "\\""`);
    rules.push(`str_char ::= [^"\\\\\\r\\n] | "\\\\" ["\\\\/bfnrt] | unicode_escape`);
    rules.push(`solid_char ::= [^"\\\\\\r\\n \\t] | "\\\\" ["\\\\/] | unicode_escape`);
    rules.push(`unicode_escape ::= "\\\\u" [0-9a-fA-F]{4}`);
    for (let k = 1; k <= steps; k++) rules.push(planRule(k));
    for (let i = 0; i < steps; i++) rules.push(...accessRules(i));
  }
  return `${rules.join("\n")}\n`;
}
