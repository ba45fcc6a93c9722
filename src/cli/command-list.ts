// Every command of `conductor-studio`, one line each. A command is a module exporting a CliCommand
// (src/cli/command.ts); to add one, add its line here. main.ts lists them in the order of their
// names, dispatches to them and prints their help.
export { evalCommand } from "./commands/eval.ts";
export { grammarCommand } from "./commands/grammar.ts";
export { parseCommand } from "./commands/parse.ts";
export { runCommand } from "./commands/run.ts";
export { serveCommand } from "./commands/serve.ts";
export { mcpCommand } from "./commands/mcp.ts";
export { promptsCommand } from "./commands/prompts.ts";
export { rewardCommand } from "./reward/server.ts";
export { otelCommand } from "./commands/otel.ts";
export { evalDiffCommand } from "./commands/eval-diff.ts";
export { evalMergeCommand } from "./commands/eval-merge.ts";
export { scoreCommand } from "./commands/score.ts";
export { evalTableCommand } from "./commands/eval-table.ts";
