import { readFile } from "node:fs/promises";
import type { Download } from "@playwright/test";
import { z } from "zod";

const AccessSchema = z.union([z.literal("all"), z.array(z.number())]);

/** The parts of an export (src/engine/run/export.ts) the specs read. */
const ExportSchema = z.object({
  format: z.string(),
  version: z.number(),
  run: z.object({
    question: z.string(),
    rounds: z.array(
      z.object({
        lists: z
          .object({
            model_id: z.array(z.number()),
            subtasks: z.array(z.string()),
            access_list: z.array(AccessSchema),
            workerIds: z.array(z.string()),
          })
          .nullable(),
        steps: z.array(
          z.object({
            worker: z.string(),
            subtask: z.string(),
            status: z.string(),
            output: z.string(),
          }),
        ),
      }),
    ),
    /** Dragged positions by step index (written only where a step was placed by hand). */
    layout: z
      .object({ positions: z.record(z.string(), z.object({ x: z.number(), y: z.number() })) })
      .optional(),
  }),
});
export type ExportJson = z.infer<typeof ExportSchema>;
export type Access = z.infer<typeof AccessSchema>;

/** An exported file as the page offered it: its text and its parsed contents. */
export interface ExportedFile {
  name: string;
  text: string;
  /** Checked against the parts the specs read. */
  json: ExportJson;
  /** Every field as written, for specs that make a damaged copy. */
  raw: Record<string, unknown>;
}

const RawObjectSchema = z.record(z.string(), z.unknown());

/** Reads a file the page offered for download (an export) and checks its shape. */
export async function readExport(download: Download): Promise<ExportedFile> {
  const text = await readFile(await download.path(), "utf8");
  const parsed: unknown = JSON.parse(text);
  return {
    name: download.suggestedFilename(),
    text,
    json: ExportSchema.parse(parsed),
    raw: RawObjectSchema.parse(parsed),
  };
}
