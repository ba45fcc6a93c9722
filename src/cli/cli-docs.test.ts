// docs/cli.md shows what `--help` prints: its generated regions are re-rendered from the commands
// and compared with the file, so a changed help text fails here until `npm run docs:cli` is run.
import { readFile } from "node:fs/promises";
import { describe, it } from "vitest";
import { CLI_DOCS_PATH, renderCliDocs } from "./cli-docs.ts";
import { EXIT_MEANING } from "./exit-codes.ts";
import { COMMANDS } from "./main.ts";

const begin = (id: string) => `<!-- generated: ${id} (npm run docs:cli; do not edit) -->`;
const END = "<!-- end generated -->";

describe("docs/cli.md", () => {
  it("is what `npm run docs:cli` generates from the commands' help", async ({ expect }) => {
    const onDisk = await readFile(CLI_DOCS_PATH, "utf8");
    const fresh = await renderCliDocs(onDisk);
    expect(
      onDisk === fresh,
      `${CLI_DOCS_PATH} is stale: a command's --help changed. Run \`npm run docs:cli\` and commit it.`,
    ).toBe(true);
    // Every command's help, the top-level help and the exit codes each have their region.
    for (const c of COMMANDS)
      expect(onDisk).toContain(`${begin(`help:${c.name}`)}\n\n\`\`\`text\n`);
    expect(onDisk).toContain(begin("help"));
    for (const [code, meaning] of Object.entries(EXIT_MEANING))
      expect(onDisk).toContain(`- \`${code}\`: ${meaning}\n`);
  });

  it("fills a region, keeps the prose around it, and appends a command that has none", async ({
    expect,
  }) => {
    const parse = COMMANDS.find((c) => c.name === "parse");
    if (!parse) throw new Error("no parse command");
    const prose = "# CLI\n\nHand-written prose.\n\n";
    const after = "\nMore prose.\n";
    const doc = `${prose}${begin("help:parse")}\nstale text\n${END}\n${after}`;
    const out = await renderCliDocs(doc);
    expect(
      out.startsWith(`${prose}${begin("help:parse")}\n\n\`\`\`text\n${parse.help.trimEnd()}`),
    ).toBe(true);
    expect(out).not.toContain("stale text");
    expect(out).toContain(after);
    // Every other command is appended under its own heading, so a new command needs no hand edit.
    expect(out).toContain(`### conductor-studio run --help\n\n${begin("help:run")}`);
    expect(await renderCliDocs(out)).toBe(out);
  });

  it("refuses a region that names no command", async ({ expect }) => {
    await expect(renderCliDocs(`${begin("help:frobnicate")}\nx\n${END}\n`)).rejects.toThrow(
      "generated regions name no command: help:frobnicate",
    );
  });

  it("leaves the version out of the top-level help", async ({ expect }) => {
    const out = await renderCliDocs(`${begin("help")}\n${END}\n`);
    expect(out).toContain("\n\n```text\nconductor-studio: plan and run Conductor workflows");
  });
});
