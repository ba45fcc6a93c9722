// `conductor-studio mcp`: the MCP tools over stdio, for desktop clients that start the server as a
// child process. stdout carries the protocol only; the log goes to stderr. No listener is opened.
import { parseArgs } from "node:util";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { CliCommand, Io } from "../command.ts";
import { UsageError } from "../command.ts";
import { loadCommandConfig } from "../config.ts";
import { EXIT, exitCodesHelp } from "../exit-codes.ts";
import { createEngine } from "../kit/engine.ts";
import { MCP_VERSION, createMcpServer } from "../mcp/tools.ts";

export const MCP_HELP = `Serve the Conductor and its pool as MCP tools over stdio, for a desktop client or IDE agent.

Usage: conductor-studio mcp --config FILE

Options:
  --config FILE   the Conductor and the workers (JSON, as for serve; required)
  --strict        refuse a config with unknown keys instead of warning

Tools: plan (question, pool?) answers the Conductor's plan; run_plan (question, plan, pool?) runs a
plan, perhaps edited; solve (question, pool?) plans and runs. Each answers the run's id, status,
cost and answer, with progress notifications as steps finish. The config's maxCalls caps a run.
Over HTTP instead: conductor-studio serve --mcp (README: MCP).

${exitCodesHelp({
  [EXIT.ok]: "the client closed the connection",
  [EXIT.usage]: "usage error or an invalid config",
})}
Examples:
  conductor-studio mcp --config pool.json
  conductor-studio mcp --config pool.json --strict
`;

async function mcpRun(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { config: { type: "string" }, strict: { type: "boolean" } },
  });
  if (!values.config) throw new UsageError("--config FILE is required.");
  const resolved = await loadCommandConfig(values.config, io, values.strict);
  if (!resolved) return 2;
  const engine = createEngine(resolved, {});
  const log = (line: string) => io.stderr(`[mcp] ${line}\n`);
  const handle = serveStdio(() => createMcpServer({ engine, version: MCP_VERSION, log }), {
    onerror: (e) => log(e.message),
  });
  log(`serving ${resolved.pool.length} workers over stdio`);
  // The connection ends when the client closes stdin.
  await new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  await handle.close();
  return 0;
}

export const mcpCommand: CliCommand = {
  name: "mcp",
  summary: "serve the Conductor and its pool as MCP tools (plan, run_plan, solve) over stdio",
  help: MCP_HELP,
  run: mcpRun,
};
