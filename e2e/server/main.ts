/**
 * Standalone test server for the Playwright suite:
 *   tsx e2e/server/main.ts --port 8787 [--scenario FILE.json] [--no-cors] [--key MODEL=KEY]
 * A scenario file maps model -> reply (text, or a reply object without functions), used as that
 * model's default. Prints `READY <url>` once listening; stops on SIGINT/SIGTERM.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { ReplyJsonSchema } from "./reply.ts";
import { startTestServer } from "./server.ts";

const ScenarioSchema = z.record(z.string().min(1), ReplyJsonSchema);

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function readScenario(file: string): z.infer<typeof ScenarioSchema> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8")) as unknown;
  } catch (e: unknown) {
    fail(`Cannot read scenario ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = ScenarioSchema.safeParse(raw);
  if (!parsed.success) fail(`Bad scenario ${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8787" },
    scenario: { type: "string" },
    "no-cors": { type: "boolean", default: false },
    key: { type: "string", multiple: true },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`Bad --port ${values.port}`);
const keys: Record<string, string> = {};
for (const pair of values.key ?? []) {
  const at = pair.indexOf("=");
  if (at <= 0) fail(`Bad --key ${pair}: expected MODEL=KEY`);
  keys[pair.slice(0, at)] = pair.slice(at + 1);
}

const scenario = values.scenario ? readScenario(values.scenario) : {};
const server = await startTestServer({ port, keys, cors: !values["no-cors"] });
for (const [model, reply] of Object.entries(scenario)) server.setDefault(model, reply);
console.log(`READY ${server.url}`);

const stop = () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
