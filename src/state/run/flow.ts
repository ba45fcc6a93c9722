// The document as React Flow nodes and edges: what each step node shows.
import { findWorker } from "../../engine/conductor/shown-ids.ts";
import { notInPool } from "../../engine/pool/cost-estimate.ts";
import type { Edge, Node } from "@xyflow/react";
import type { WorkflowDoc } from "../../engine/graph/document.ts";
import { edgesOf } from "../../engine/graph/edges.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import type { RetryState, StepStatus } from "../../engine/schema/record.ts";
import type { StepResult } from "../slices/run.ts";

/** What a step node shows. */
export interface StepNodeData extends Record<string, unknown> {
  index: number;
  isLast: boolean;
  workerName: string;
  /** The step's worker is not in the pool (removed, or the open run's): the step cannot run. */
  workerMissing?: boolean;
  subtask: string;
  status: StepStatus;
  tokens: number | null;
  estimated: boolean;
  /** Answered from Evaluate's response cache (no cost); absent otherwise. */
  cached?: boolean;
  cost: number | null;
  /** No price was known for the call: its cost is unknown, not $0. */
  unpriced?: boolean;
  latencyMs: number | null;
  output: string;
  error: string | null;
  /** Why a skipped step did not run (an error code: `budget`, `upstream_failed`). */
  skipCode?: string;
  /** The worker's reasoning (shown under "Thinking", never read by later steps). */
  reasoning?: string;
  /** Set while a retry waits (the record's object, so an unchanged retry keeps its identity). */
  retry?: RetryState | null;
  /** A step of a later round or a nested workflow: shown, not edited here. */
  readonly?: boolean;
  /** A self-selected step's nested workflow: its size and whether it is drawn (key: its group id). */
  nested?: { steps: number; expanded: boolean; key: string } | null;
  /** A step given to the Conductor itself that ran as one plain call: the nesting-depth cap. */
  pastDepthCap?: boolean;
}

export type StepFlowNode = Node<StepNodeData, "step">;

/** The canvas data of one step: what the node shows, derived from the document and its result. */
export function nodeData(
  doc: WorkflowDoc,
  index: number,
  pool: Worker[],
  result: StepResult | undefined,
  former: readonly Worker[] = [],
  /** The open run is a shipped example: its recorded workers are named, not flagged as missing. */
  example = false,
): StepNodeData {
  const step = doc.steps[index]!;
  const worker = findWorker(pool, step.worker);
  const recorded = findWorker(former, step.worker)?.name;
  return {
    index,
    isLast: index === doc.steps.length - 1,
    workerName: worker?.name ?? notInPool(step.worker, recorded, example),
    ...(worker || (example && recorded) ? {} : { workerMissing: true }),
    subtask: step.subtask,
    ...resultFields(result),
  };
}

/** Workers known from before the pool's edits and from the open run, latest first. */
export function formerWorkers(
  undo: readonly { pool: readonly Worker[] }[],
  runPool: readonly Worker[],
): Worker[] {
  return [...undo.flatMap((e) => e.pool).reverse(), ...runPool];
}

/** What a node shows of a step's run: status, tokens, cost, latency, output or error. */
export function resultFields(result: StepResult | undefined) {
  const usage = result?.usage ?? null;
  return {
    status: result?.status ?? ("idle" as const),
    tokens: usage ? usage.promptTokens + usage.completionTokens : null,
    estimated: usage?.estimated ?? false,
    ...(usage?.cached ? { cached: true } : {}),
    cost: result?.cost ?? null,
    ...(usage?.unpriced ? { unpriced: true } : {}),
    latencyMs:
      result?.startedAt != null && result.finishedAt != null
        ? result.finishedAt - result.startedAt
        : null,
    output: result?.output ?? "",
    error: result?.status === "failed" ? (result.error?.message ?? "failed") : null,
    skipCode: result?.status === "skipped" ? result.error?.code : undefined,
    reasoning: result?.reasoning ?? "",
    retry: result?.retry ?? null,
  };
}

function sameData(a: StepNodeData, b: StepNodeData): boolean {
  return (Object.keys(a) as (keyof StepNodeData)[]).every((k) =>
    k === "nested" ? JSON.stringify(a.nested) === JSON.stringify(b.nested) : a[k] === b[k],
  );
}

/**
 * React Flow nodes for the document. A node whose data did not change keeps its previous object,
 * so memoised nodes skip rendering while other steps stream; React Flow's bookkeeping (measured
 * size, selection) is carried over from the previous nodes rather than stored in the document.
 */
export function toFlowNodes(
  doc: WorkflowDoc,
  positions: Record<string, { x: number; y: number }>,
  pool: Worker[],
  results: Record<string, StepResult>,
  selectedIds: readonly string[],
  previous: readonly StepFlowNode[],
  nestedOf?: ReadonlyMap<string, StepNodeData["nested"]>,
  /** Workers that left the pool, to name the steps still on them (`formerWorkers`). */
  former: readonly Worker[] = [],
  /** The open run is a shipped example (see `nodeData`). */
  example = false,
): StepFlowNode[] {
  const prev = new Map(previous.map((n) => [n.id, n]));
  return doc.steps.map((step, index) => {
    const old = prev.get(step.id);
    const data = {
      ...nodeData(doc, index, pool, results[step.id], former, example),
      nested: nestedOf?.get(step.id) ?? null,
    };
    const position = positions[step.id] ?? { x: 0, y: 0 };
    const selected = selectedIds.includes(step.id);
    if (
      old &&
      sameData(old.data, data) &&
      old.position.x === position.x &&
      old.position.y === position.y &&
      !!old.selected === selected
    )
      return old;
    return {
      ...old,
      id: step.id,
      type: "step",
      position,
      data: old && sameData(old.data, data) ? old.data : data,
      selected,
    };
  });
}

/** React Flow edges: one per visible earlier step; an "all" step's edges share the bundle style. */
export function toFlowEdges(doc: WorkflowDoc, running: ReadonlySet<string>): Edge[] {
  return edgesOf(doc).map((e) => ({
    id: e.id,
    source: e.source,
    target: e.target,
    className: e.bundle ? "edge-bundle" : "edge-direct",
    animated: running.has(e.target),
    data: { bundle: e.bundle },
  }));
}
