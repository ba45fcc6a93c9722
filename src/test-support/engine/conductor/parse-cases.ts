/** Shared helpers of the parser tables: realistic Conductor outputs we wrote ourselves. */
import type { ErrorCode } from "../../../engine/errors.ts";
import type { Access, PlannedStep } from "../../../engine/schema/workflow.ts";
import type { ParseOptions } from "../../../engine/conductor/parse.ts";

export const s = (worker: number, subtask: string, access: Access): PlannedStep => ({
  worker,
  subtask,
  access,
});
export const POOL: ParseOptions = { workers: 7 };

export interface Row {
  name: string;
  text: string;
  options?: Partial<ParseOptions>;
}
export type Valid = Row & { steps: PlannedStep[] };
export type Invalid = Row & { code: ErrorCode; mentions: string[] };

export const TWO = [
  s(2, "Design an efficient algorithm", []),
  s(0, "Implement it in Python", "all"),
];
export const TWO_LISTS = `model_id = [2, 0]
subtasks = ["Design an efficient algorithm", "Implement it in Python"]
access_list = [[], ["all"]]`;
