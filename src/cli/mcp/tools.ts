// The MCP server of `serve --mcp` and `conductor-studio mcp`: three tools on serve's engine, built
// with the official SDK (2.x, the 2026-07-28 stateless protocol; the SDK serves 2025-era clients
// from the same factory). `plan` answers the Conductor's plan, `run_plan` runs a plan (perhaps
// edited) on the pool, `solve` does both; each answers the run's id, status, cost and answer, and
// sends progress notifications as steps finish when the client asked for them.
import { McpServer } from "@modelcontextprotocol/server";
import type { CallToolResult, ServerContext } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { ServeEngine } from "../kit/engine.ts";
import type { RunQueue } from "../serve/request-queue.ts";
import type { Progress, ToolRun, ToolRunInput } from "./runs.ts";
import { poolOf, stepsOf, toolRun } from "./runs.ts";

/** The version the MCP server reports (its tools' contract, not the package's). */
export const MCP_VERSION = "1.0.0";

export interface McpDeps {
  engine: ServeEngine;
  /** serve's run slots: a tool call waits for one like a chat request (none on stdio). */
  queue?: RunQueue;
  version: string;
  log: (line: string) => void;
}

const AccessSchema = z.union([z.literal("all"), z.array(z.number().int().nonnegative())]);
const StepSchema = z.object({
  worker: z.string().describe("the worker's name, as the pool lists it"),
  subtask: z.string().min(1),
  access: AccessSchema.describe('"all", [] or the earlier steps (0-based) this step sees'),
});
const question = z.string().min(1).describe("the question to answer");
const pool = z
  .array(z.string())
  .optional()
  .describe("worker names to plan over (default: the whole pool)");

const RunSchema = z.object({
  run_id: z.string(),
  status: z.string(),
  answer: z.string().nullable(),
  cost: z.number().describe("US dollars, every call of the run"),
  calls: z.number(),
  plan: z.array(StepSchema),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});

/** The tool's answer: the run as structured content, and as text for clients that show text. */
function answer(run: ToolRun): CallToolResult {
  const text = run.error
    ? `Run ${run.run_id} ${run.status}: ${run.error.message}`
    : (run.answer ?? JSON.stringify(run.plan, null, 2));
  return {
    content: [{ type: "text", text }],
    structuredContent: { ...run },
    ...(run.error ? { isError: true } : {}),
  };
}

const refusal = (message: string): CallToolResult => ({
  content: [{ type: "text", text: message }],
  isError: true,
});

/** Progress notifications for this call, when the client sent a progress token. */
function progressSender(ctx: ServerContext): ((p: Progress) => void) | undefined {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  return (p) =>
    void ctx.mcpReq
      .notify({
        method: "notifications/progress",
        params: { progressToken: token, progress: p.done, total: p.total, message: p.message },
      })
      .catch(() => undefined);
}

async function withSlot(
  deps: McpDeps,
  input: Omit<ToolRunInput, "signal" | "onProgress">,
  ctx: ServerContext,
): Promise<CallToolResult> {
  const signal = ctx.mcpReq.signal;
  const slot = deps.queue ? await deps.queue.acquire(signal) : undefined;
  if (slot && !slot.ok)
    return refusal(
      slot.reason === "full"
        ? "Too many runs are waiting; retry later."
        : "The server is stopping.",
    );
  try {
    const run = await toolRun(deps.engine, { ...input, signal, onProgress: progressSender(ctx) });
    deps.log(`mcp ${input.mode.kind} ${run.run_id} ${run.status} $${run.cost.toFixed(6)}`);
    return answer(run);
  } finally {
    if (slot?.ok) slot.release();
  }
}

/** A fresh MCP server with the three tools (the SDK asks for one per request or connection). */
export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer(
    { name: "conductor-studio", version: deps.version },
    { capabilities: { tools: {} } },
  );
  // plan and solve take the same input (a question, an optional pool) and differ only in mode.
  const conductorTool = (kind: "plan" | "solve", title: string, description: string) =>
    server.registerTool(
      kind,
      { title, description, inputSchema: z.object({ question, pool }), outputSchema: RunSchema },
      async (args, ctx) => {
        const p = poolOf(deps.engine, args.pool);
        if (!p.ok) return refusal(p.message);
        return withSlot(deps, { question: args.question, pool: p.value, mode: { kind } }, ctx);
      },
    );
  conductorTool(
    "plan",
    "Plan with the Conductor",
    "Ask the Conductor for a workflow (steps over the worker pool) for a question, without running it. Edit it and pass it to run_plan.",
  );
  server.registerTool(
    "run_plan",
    {
      title: "Run a plan",
      description:
        "Run a workflow (as plan returns it, perhaps edited) on the worker pool; answers the last step's output.",
      inputSchema: z.object({ question, plan: z.array(StepSchema).min(1), pool }),
      outputSchema: RunSchema,
    },
    async (args, ctx) => {
      const p = poolOf(deps.engine, args.pool);
      if (!p.ok) return refusal(p.message);
      const steps = stepsOf(args.plan, p.value);
      if (!steps.ok) return refusal(steps.message);
      const mode = { kind: "run" as const, steps: steps.value };
      return withSlot(deps, { question: args.question, pool: p.value, mode }, ctx);
    },
  );
  conductorTool(
    "solve",
    "Solve with the Conductor and its pool",
    "Plan with the Conductor and run the plan on the worker pool: the workflow's answer, with the run's id and cost.",
  );
  return server;
}
