// Every command of `conductor-studio`, one line each. A command is a module exporting a CliCommand
// (src/cli/command.ts); to add one, add its line here. main.ts lists them in the order of their
// names, dispatches to them and prints their help.
export { evalCommand } from "./eval.ts";
export { grammarCommand } from "./grammar-command.ts";
export { parseCommand } from "./parse-command.ts";
export { runCommand } from "./run-command.ts";
export { serveCommand } from "./serve/command.ts";
export { mcpCommand } from "./mcp/command.ts";
export { promptsCommand } from "./prompts.ts";
export { rewardCommand } from "./reward/server.ts";
export { otelCommand } from "./otel.ts";
export { evalDiffCommand } from "./eval-diff.ts";
export { evalMergeCommand } from "./eval-merge.ts";
export { scoreCommand } from "./score.ts";
export { evalTableCommand } from "./eval-table.ts";
