// The MCP tools as the official SDK's own client calls them: in process, over streamable HTTP from
// `serve --mcp` (the 2026-07-28 protocol and the 2025-11-25 one), behind serve's guard and key, and
// over stdio from `conductor-studio mcp` as a desktop client starts it. The local test server
// stands in for every model.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { describe, it } from "vitest";
import {
  ANSWER_A,
  CHECKED,
  CLI_TIMEOUT_MS,
  cliIt,
  QUESTION,
  scriptAttemptsThenCheck,
  threeWorkerConfig,
} from "../../test-support/cli/cli-harness.ts";
import { resolveConfig } from "../config.ts";
import { createEngine } from "../kit/engine.ts";
import { serveInProcess } from "../../test-support/cli/serve-in-process.ts";
import { MCP_VERSION, createMcpServer } from "./tools.ts";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const KEY = "sk-mcp-test-3f9a1c";

interface RunOut {
  run_id: string;
  status: string;
  answer: string | null;
  cost: number;
  calls: number;
  plan: { worker: string; subtask: string; access: unknown }[];
}
const structured = (r: unknown) => (r as { structuredContent: RunOut }).structuredContent;

const modern = () =>
  new Client({ name: "test", version: "1" }, { versionNegotiation: { mode: "auto" } });
const legacy = () => new Client({ name: "test", version: "1" });

/** `client` connected over `transport`, closed when the test finishes. */
async function connected(
  client: Client,
  transport: Parameters<Client["connect"]>[0],
  onFinished: (fn: () => Promise<void>) => void,
): Promise<Client> {
  await client.connect(transport);
  onFinished(() => client.close());
  return client;
}

/** `serve --mcp` in this process, asking for the key in K (KEY). */
const serveKeyedMcp = (onFinished: (fn: () => Promise<void>) => void) =>
  serveInProcess(onFinished, { args: ["--mcp", "--api-key-env", "K"], env: { K: KEY } });

describe("the MCP tools", { timeout: CLI_TIMEOUT_MS }, () => {
  cliIt(
    "in process: lists the tools and solves a question with progress, id and cost",
    async ({ expect, h: { server }, onTestFinished }) => {
      const resolved = resolveConfig(JSON.stringify(threeWorkerConfig(server)), {});
      if (!resolved.ok) throw new Error(resolved.message);
      const engine = createEngine(resolved);
      const mcp = createMcpServer({ engine, version: MCP_VERSION, log: () => undefined });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await mcp.connect(b);
      const client = await connected(legacy(), a, onTestFinished);
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(["plan", "run_plan", "solve"]);
      scriptAttemptsThenCheck(server);
      const progress: { progress: number; total?: number; message?: string }[] = [];
      const r = await client.callTool(
        { name: "solve", arguments: { question: QUESTION } },
        { onprogress: (p) => progress.push(p) },
      );
      expect(structured(r)).toMatchObject({ status: "done", answer: CHECKED, calls: 4 });
      expect(structured(r).run_id).toMatch(/\S/);
      expect(structured(r).cost).toBeGreaterThan(0);
      expect(structured(r).plan.map((s) => s.worker)).toEqual(["Solver A", "Solver B", "Checker"]);
      // One notification for the plan, one per finished step.
      expect(progress.map((p) => p.progress)).toEqual([0, 1, 2, 3]);
      expect(progress.at(-1)).toMatchObject({ total: 3 });
      const unknown = await client.callTool({
        name: "plan",
        arguments: { question: QUESTION, pool: ["Nobody"] },
      });
      expect(unknown.isError).toBe(true);
    },
  );

  it("over HTTP (2026-07-28): plan, then run the edited plan, with serve's key", async ({
    expect,
    onTestFinished,
  }) => {
    const s = await serveKeyedMcp(onTestFinished);
    const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${KEY}` } },
    });
    const client = await connected(modern(), transport, onTestFinished);
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    scriptAttemptsThenCheck(s.server);
    const planned = structured(
      await client.callTool({ name: "plan", arguments: { question: QUESTION } }),
    );
    expect(planned).toMatchObject({ status: "planned", answer: null, calls: 1 });
    expect(planned.plan).toHaveLength(3);
    // The user keeps only the first attempt: one call to Solver A, no Conductor call.
    const before = s.server.requests.length;
    const ran = structured(
      await client.callTool({
        name: "run_plan",
        arguments: { question: QUESTION, plan: planned.plan.slice(0, 1) },
      }),
    );
    expect(ran).toMatchObject({ status: "done", answer: ANSWER_A, calls: 1 });
    expect(ran.run_id).not.toBe(planned.run_id);
    expect(s.server.requests.length - before).toBe(1);
  });

  it("over HTTP (2025-11-25, the 1.x SDK's protocol): solves statelessly", async ({
    expect,
    onTestFinished,
  }) => {
    const s = await serveInProcess(onTestFinished, { args: ["--mcp"] });
    const client = await connected(
      legacy(),
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)),
      onTestFinished,
    );
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect(client.getServerVersion()).toMatchObject({ name: "conductor-studio" });
    scriptAttemptsThenCheck(s.server);
    const r = await client.callTool({ name: "solve", arguments: { question: QUESTION } });
    expect(structured(r)).toMatchObject({ status: "done", answer: CHECKED });
  });

  it("over HTTP: refuses a page's request, a non-JSON body and a missing key before any work", async ({
    expect,
    onTestFinished,
  }) => {
    const s = await serveKeyedMcp(onTestFinished);
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "solve", arguments: { question: QUESTION } },
    });
    const post = (headers: Record<string, string>) =>
      fetch(`${s.url}/mcp`, {
        method: "POST",
        headers: { Accept: "application/json, text/event-stream", ...headers },
        body: call,
      });
    const json = { "Content-Type": "application/json", Authorization: `Bearer ${KEY}` };
    expect((await post({ ...json, Origin: "http://evil.example" })).status).toBe(403);
    expect((await post({ ...json, "Content-Type": "text/plain" })).status).toBe(415);
    expect((await post({ "Content-Type": "application/json" })).status).toBe(401);
    expect(s.server.requests).toHaveLength(0);
  });

  cliIt(
    "over stdio: conductor-studio mcp answers a desktop client",
    async ({ expect, h, onTestFinished }) => {
      const { server } = h;
      const config = await h.file("pool.json", threeWorkerConfig(server));
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [join(ROOT, "bin", "conductor-studio.mjs"), "mcp", "--config", config],
        env: { PATH: process.env.PATH ?? "" },
        stderr: "ignore",
      });
      const client = await connected(legacy(), transport, onTestFinished);
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(["plan", "run_plan", "solve"]);
      scriptAttemptsThenCheck(server);
      const r = await client.callTool({ name: "solve", arguments: { question: QUESTION } });
      expect(structured(r)).toMatchObject({ status: "done", answer: CHECKED, calls: 4 });
    },
  );
});
