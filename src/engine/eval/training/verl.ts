import type { ConductorSample } from "./sample.ts";
import { verlRows } from "./shapes.ts";

/** A text column of a verl parquet schema. */
export const text = (name: string) =>
  ({ name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" }) as const;

/**
 * The columns every verl RL parquet file starts with, as verl's example writers lay them out:
 * data_source, prompt (a list of {content, role}), ability and reward_model {ground_truth, style};
 * `extra_info` (a struct of `extraChildren` fields) follows, each writer giving its own fields.
 */
export function verlSchemaHead(extraChildren: number) {
  return [
    { name: "root", num_children: 5 },
    text("data_source"),
    { name: "prompt", repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
    { name: "list", repetition_type: "REPEATED", num_children: 1 },
    { name: "element", repetition_type: "OPTIONAL", num_children: 2 },
    text("content"),
    text("role"),
    text("ability"),
    { name: "reward_model", repetition_type: "OPTIONAL", num_children: 2 },
    text("ground_truth"),
    text("style"),
    { name: "extra_info", repetition_type: "OPTIONAL", num_children: extraChildren },
  ] as const;
}

/**
 * The verl parquet file (hyparquet-writer), nested columns as verl's own example writers produce
 * them: `prompt` a list of {content, role}, `reward_model` and `extra_info` structs.
 */
export async function verlParquet(
  samples: readonly ConductorSample[],
  dataSource: string,
  ability?: string,
): Promise<ArrayBuffer> {
  const { parquetWriteBuffer } = await import("hyparquet-writer");
  const rows = verlRows(samples, dataSource, ability);
  return parquetWriteBuffer({
    columnData: [
      { name: "data_source", data: rows.map((r) => r.data_source) },
      { name: "prompt", data: rows.map((r) => r.prompt) },
      { name: "ability", data: rows.map((r) => r.ability) },
      { name: "reward_model", data: rows.map((r) => r.reward_model) },
      {
        name: "extra_info",
        data: rows.map((r) => ({ ...r.extra_info, index: BigInt(r.extra_info.index) })),
      },
    ],
    schema: [
      ...verlSchemaHead(3),
      text("group_id"),
      { name: "index", type: "INT64", repetition_type: "OPTIONAL" },
      text("split"),
    ],
  });
}
