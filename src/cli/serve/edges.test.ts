// `serve` at its edges: malformed paths, the server key's form, /health during the drain, and
// the --runs file rotating by size.
import { readdir } from "node:fs/promises";
import { describe, it } from "vitest";
import {
  CHECKED,
  CLI_TIMEOUT_MS,
  ask,
  scriptAttemptsThenCheck,
} from "../../test-support/cli/cli-harness.ts";
import { readRuns } from "../../test-support/cli/serve-child.ts";
import { serveInProcess, serveIt } from "../../test-support/cli/serve-in-process.ts";

const KEY = "sk-serve-edges-41c9";

describe("serve edges", { timeout: CLI_TIMEOUT_MS }, () => {
  serveIt("answers a bad percent-escape in a path with 400, not 500", async ({ expect, s }) => {
    const r = await fetch(`${s.url}/v1/models/%E0%A4%A`);
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ error: { code: "invalid_path" } });
    expect((await fetch(`${s.url}/v1/models/conductor`)).status).toBe(200);
  });

  it("takes the server key only as a Bearer token", async ({ expect, onTestFinished }) => {
    const s = await serveInProcess(onTestFinished, {
      args: ["--api-key-env", "K"],
      env: { K: KEY },
    });
    const models = (authorization: string) =>
      fetch(`${s.url}/v1/models`, { headers: { Authorization: authorization } });
    expect((await models(`Bearer ${KEY}`)).status).toBe(200);
    expect((await models(`bearer  ${KEY}`)).status).toBe(200);
    for (const refused of [KEY, `Basic ${KEY}`, `Token ${KEY}`, `Bearer ${KEY} extra`, "Bearer"]) {
      const r = await models(refused);
      expect(r.status, refused).toBe(401);
      expect(r.headers.get("x-should-retry")).toBe("false");
    }
    expect(await s.client({ apiKey: KEY }).models.list()).toMatchObject({ object: "list" });
  });

  serveIt(
    "answers /health with 503 draining while runs drain, and new requests with 503",
    async ({ expect, s }) => {
      let reached!: () => void;
      const checking = new Promise<void>((resolve) => (reached = resolve));
      scriptAttemptsThenCheck(s.server);
      s.server.reset();
      s.server.script("conductor-7b", `model_id = [2]\nsubtasks = ["Answer."]\naccess_list = [[]]`);
      s.server.script("checker", () => {
        reached();
        return { content: CHECKED, latencyMs: 300 };
      });
      const inFlight = s.client({ maxRetries: 0 }).chat.completions.create(ask());
      await checking;
      expect(await (await fetch(`${s.url}/health`)).json()).toMatchObject({
        status: "ok",
        running: 1,
      });
      const stopped = s.running.shutdown(5_000);
      const health = await fetch(`${s.url}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: "draining", running: 1 });
      const late = await fetch(`${s.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(ask()),
      });
      expect(late.status).toBe(503);
      expect(late.headers.get("x-should-retry")).toBe("true");
      expect((await inFlight).choices[0]?.message.content).toBe(CHECKED);
      await stopped;
      await expect(fetch(`${s.url}/health`)).rejects.toThrow();
    },
  );

  it("rotates the --runs file by size, every record whole", async ({ expect, onTestFinished }) => {
    const s = await serveInProcess(onTestFinished, { args: ["--runs-max-bytes", "1024"] });
    for (let i = 0; i < 3; i++) {
      scriptAttemptsThenCheck(s.server);
      await s.client().chat.completions.create(ask());
    }
    await s.running.shutdown(0);
    const files = (await readdir(s.runs)).sort();
    // Each record is larger than 1 KiB, so each starts a file of its own.
    expect(files).toHaveLength(3);
    const part = new RegExp(`-${process.pid}(?:-(\\d+))?\\.jsonl$`);
    expect(files.map((f) => part.exec(f)?.[1] ?? "1").sort()).toEqual(["1", "2", "3"]);
    const records = await readRuns(s.runs);
    expect(records.map((r) => r.run.answer)).toEqual([CHECKED, CHECKED, CHECKED]);
  });
});
