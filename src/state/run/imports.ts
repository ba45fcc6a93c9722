// Imports of dropped or chosen files: runs, JSON lines and what the import tells the user.
import { openFile, readRunFile, storeExport } from "./files.ts";
import { refreshHistory } from "./historyController.ts";
import { useStudio } from "../slices/store.ts";

/** Whether a file is a JSON-lines file (History's "as JSON lines" export): one run a line. */
export function isJsonLines(file: { name: string }): boolean {
  return /\.(jsonl|ndjson)$/i.test(file.name);
}

/** How an import confirms what it opened: the run's question and size, stored in History. */
export function openedNote(fileName: string): string {
  const record = useStudio.getState().record;
  const q = record.question.trim().split("\n")[0] ?? "";
  const title = q ? `"${q.length > 60 ? `${q.slice(0, 59)}…` : q}"` : "a run without a question";
  const steps = record.rounds[0]?.steps.length ?? 0;
  const rounds = record.rounds.filter((r) => r.steps.length > 0).length;
  const size = `${steps} step${steps === 1 ? "" : "s"}${rounds > 1 ? `, ${rounds} rounds` : ""}`;
  return `Opened ${fileName}: ${title} (${size}), now stored in History.`;
}

/** Shows the confirmation, followed by what the checker noted (already the notice), if anything. */
function confirmOpened(fileName: string, before: string | null): void {
  const s = useStudio.getState();
  const notes = s.notice && s.notice !== before ? ` ${s.notice}` : "";
  s.setNotice(`${openedNote(fileName)}${notes}`);
}

/**
 * Stores each line of a JSON-lines file as a run with its own kind (History's "as JSON lines"
 * export brings runs back as they were listed), without opening any: what is on screen stays.
 * Returns how many were stored and the problems, by line.
 */
async function storeLines(file: File): Promise<{ stored: number; problems: string[] }> {
  const read = await readRunFile(file);
  if (!read.ok) return { stored: 0, problems: [`${file.name}: ${read.message}`] };
  const problems: string[] = [];
  let stored = 0;
  for (const [i, line] of read.text.split("\n").entries()) {
    if (!line.trim()) continue;
    const done = await storeExport(line, "own");
    if (done.ok) stored++;
    else problems.push(`${file.name} line ${i + 1}: ${done.message}`);
  }
  return { stored, problems };
}

/**
 * Imports several files as stored runs (the last run file opens; JSON-lines files only store
 * theirs). Confirms what it opened or stored, and says which could not be read.
 */
export async function importFiles(files: File[]): Promise<void> {
  const problems: string[] = [];
  const said: string[] = [];
  let opened: string | null = null;
  for (const file of files) {
    if (isJsonLines(file)) {
      const lines = await storeLines(file);
      problems.push(...lines.problems);
      if (lines.stored)
        said.push(
          `Stored ${lines.stored} run${lines.stored === 1 ? "" : "s"} from ${file.name} in History; what is on screen is unchanged.`,
        );
      continue;
    }
    const before = useStudio.getState().notice;
    const message = await openFile(file);
    if (message) problems.push(`${file.name}: ${message}`);
    else {
      confirmOpened(file.name, before);
      opened = useStudio.getState().notice;
    }
  }
  await refreshHistory();
  const text = [
    ...(opened ? [opened] : []),
    ...said,
    ...(problems.length ? [`Could not open ${problems.join("; ")}`] : []),
  ].join(" ");
  if (text) useStudio.getState().setNotice(text);
}
