// docs/cli.md's generated regions, filled from the commands themselves: the top-level help, each
// command's `--help` exactly as it prints, and the exit-code table. Prose and examples around the
// regions are written by hand and kept as they are (blank lines around each region's text keep
// the file as Prettier writes it); `npm run docs:cli` (scripts/gen-cli-docs.ts) rewrites the
// regions, and cli-docs.test.ts fails when the file on disk differs from what this renders, so the
// manual cannot drift from `--help`.
import { EXIT_MEANING } from "./exit-codes.ts";
import { COMMANDS, main } from "./main.ts";

/** Where the CLI manual lives, relative to the repository root. */
export const CLI_DOCS_PATH = "docs/cli.md";

const END = "<!-- end generated -->";
const beginMarker = (id: string) => `<!-- generated: ${id} (npm run docs:cli; do not edit) -->`;
const REGION =
  /<!-- generated: (\S+) \(npm run docs:cli; do not edit\) -->\n[\s\S]*?<!-- end generated -->/g;

/** The top-level help as `conductor-studio --help` prints it, its version left out (a release
 * would otherwise make the manual stale without changing a word of it). */
async function topHelp(): Promise<string> {
  let text = "";
  await main(["--help"], {
    stdout: (s) => (text += s),
    stderr: () => {},
    readStdin: () => Promise.resolve(""),
    env: {},
  });
  return text.replace(/^conductor-studio \S+: /, "conductor-studio: ");
}

function fence(text: string): string {
  return `\`\`\`text\n${text.trimEnd()}\n\`\`\``;
}

/** Each region's generated text, by its id: `help`, `help:NAME` per command, `exit-codes`. */
async function regionTexts(): Promise<Map<string, string>> {
  const texts = new Map<string, string>([["help", fence(await topHelp())]]);
  for (const c of COMMANDS) texts.set(`help:${c.name}`, fence(c.help));
  const codes = Object.entries(EXIT_MEANING).map(([code, meaning]) => `- \`${code}\`: ${meaning}`);
  texts.set("exit-codes", codes.join("\n"));
  return texts;
}

/**
 * The manual with every generated region filled from the commands. A command with no region yet
 * gets one appended under its own heading, so a new command appears after one `npm run docs:cli`;
 * a region naming no command is an error, since its text would otherwise go stale unseen.
 */
export async function renderCliDocs(current: string): Promise<string> {
  const texts = await regionTexts();
  const seen = new Set<string>();
  const unknown: string[] = [];
  let out = current.replace(REGION, (_whole, id: string) => {
    const text = texts.get(id);
    if (text === undefined) {
      unknown.push(id);
      return _whole;
    }
    seen.add(id);
    return `${beginMarker(id)}\n\n${text}\n\n${END}`;
  });
  if (unknown.length > 0)
    throw new Error(`${CLI_DOCS_PATH}: generated regions name no command: ${unknown.join(", ")}`);
  for (const [id, text] of texts) {
    if (seen.has(id)) continue;
    const title = id.startsWith("help:") ? `conductor-studio ${id.slice(5)} --help` : id;
    out = `${out.trimEnd()}\n\n### ${title}\n\n${beginMarker(id)}\n\n${text}\n\n${END}\n`;
  }
  return out;
}
