import { openFile } from "./files.ts";
import { refreshHistory } from "./history.ts";
import { useStudio } from "./store.ts";

/** Imports several files as stored runs (the last one opens); says which could not be read. */
export async function importFiles(files: File[]): Promise<void> {
  const problems: string[] = [];
  for (const file of files) {
    const message = await openFile(file);
    if (message) problems.push(`${file.name}: ${message}`);
  }
  await refreshHistory();
  if (problems.length) useStudio.getState().setNotice(`Could not open ${problems.join("; ")}`);
}
