// Rewrites docs/cli.md's generated regions (each command's --help, the top-level help, the exit
// codes) from the commands themselves: `npm run docs:cli`. src/cli/cli-docs.test.ts fails until
// the file is regenerated after a help text changes.
import { readFile, writeFile } from "node:fs/promises";
import { CLI_DOCS_PATH, renderCliDocs } from "../src/cli/cli-docs.ts";

const path = new URL(`../${CLI_DOCS_PATH}`, import.meta.url);
const before = await readFile(path, "utf8");
const after = await renderCliDocs(before);
if (after === before) console.log(`${CLI_DOCS_PATH} is up to date.`);
else {
  await writeFile(path, after);
  console.log(`${CLI_DOCS_PATH} regenerated.`);
}
