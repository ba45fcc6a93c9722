import type { StoredImport } from "./files.ts";
import { openFile, readRunFile, shown, storeExport } from "./files.ts";
import { refreshHistory } from "./history.ts";
import { useStudio } from "./store.ts";

/** Whether a file is a JSON-lines file (History's "as JSON lines" export): one run a line. */
export function isJsonLines(file: { name: string }): boolean {
  return /\.(jsonl|ndjson)$/i.test(file.name);
}

/**
 * Stores each line of a JSON-lines file as a run and shows the last good one (showing each in
 * turn would redraw the canvas and add an undo step per line); the problems, by line.
 */
async function openLines(file: File): Promise<string[]> {
  const read = await readRunFile(file);
  if (!read.ok) return [`${file.name}: ${read.message}`];
  const problems: string[] = [];
  let last: StoredImport | null = null;
  for (const [i, line] of read.text.split("\n").entries()) {
    if (!line.trim()) continue;
    const stored = await storeExport(line);
    if (stored.ok) last = stored;
    else problems.push(`${file.name} line ${i + 1}: ${stored.message}`);
  }
  if (last) shown(last);
  return problems;
}

/**
 * Imports several files as stored runs (the last one opens); a JSON-lines file brings in each of
 * its lines. Says which could not be read.
 */
export async function importFiles(files: File[]): Promise<void> {
  const problems: string[] = [];
  for (const file of files) {
    if (isJsonLines(file)) {
      problems.push(...(await openLines(file)));
      continue;
    }
    const message = await openFile(file);
    if (message) problems.push(`${file.name}: ${message}`);
  }
  await refreshHistory();
  if (problems.length) useStudio.getState().setNotice(`Could not open ${problems.join("; ")}`);
}
