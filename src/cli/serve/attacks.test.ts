// What a hostile web page can send to the local services that hold the user's worker keys, each
// sent as the browser would, against `serve` and `reward` in process on the local test server:
// every refused request is a 4xx that reached no model (0 upstream calls), and the callers that
// must keep working (an allowed --cors origin, curl without Origin) still do.
import { request } from "node:http";
import type { ExpectStatic } from "vitest";
import { describe, it } from "vitest";
import type { TestServer } from "../../../e2e/server/server.ts";
import { startTestServer } from "../../../e2e/server/server.ts";
import {
  CHECKED,
  CLI_TIMEOUT_MS,
  QUESTION,
  ask,
  scriptAttemptsThenCheck,
  threeWorkerConfig,
} from "../../test-support/cli/cli-harness.ts";
import { resolveConfig } from "../config.ts";
import { parseRewardArgs } from "../reward/args.ts";
import { startReward } from "../reward/server.ts";
import { serveInProcess } from "../../test-support/cli/serve-in-process.ts";

const STUDIO = "http://localhost:5173";
const EVIL = "http://evil.example";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One HTTP request with exactly these headers (fetch would not let a test set `Host`). */
function send(
  url: string,
  path: string,
  o: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { method: o.method ?? "POST", headers: o.headers },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (s: string) => (text += s));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end(o.body);
  });
}

interface Target {
  url: string;
  path: string;
  body: string;
  server: TestServer;
}

const upstream = (t: Target) => t.server.requests.length;

/** The attacks, each with what the answer must be; `port` is the service's own. */
function attacks(
  port: string,
): { name: string; headers: Record<string, string>; status: number }[] {
  return [
    {
      name: "a simple cross-site POST (text/plain, no preflight)",
      headers: { "Content-Type": "text/plain;charset=UTF-8", Origin: EVIL },
      status: 403,
    },
    {
      name: "a form POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: EVIL },
      status: 403,
    },
    {
      name: "a JSON POST from a page not allowed by --cors",
      headers: { "Content-Type": "application/json", Origin: EVIL },
      status: 403,
    },
    {
      name: "a DNS-rebinding page (foreign Host, its own origin)",
      headers: {
        Host: `evil.example:${port}`,
        Origin: `http://evil.example:${port}`,
        "Content-Type": "application/json",
      },
      status: 403,
    },
    {
      name: "a rebinding request with a foreign Host only",
      headers: { Host: `evil.example:${port}`, "Content-Type": "application/json" },
      status: 403,
    },
    {
      name: "a cross-site request without Origin",
      headers: { "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json" },
      status: 403,
    },
    {
      name: "a text/plain body without Origin",
      headers: { "Content-Type": "text/plain" },
      status: 415,
    },
  ];
}

async function refusesEveryAttack(t: Target, expect: ExpectStatic) {
  const port = new URL(t.url).port;
  for (const attack of attacks(port)) {
    const answer = await send(t.url, t.path, { headers: attack.headers, body: t.body });
    expect(answer.status, attack.name).toBe(attack.status);
    expect(JSON.parse(answer.text), attack.name).toMatchObject({
      error: { message: expect.any(String) as unknown },
    });
    expect(upstream(t), attack.name).toBe(0);
  }
  const rebound = await send(t.url, t.path, {
    headers: { Host: `evil.example:${port}`, "Content-Type": "application/json" },
    body: t.body,
  });
  expect(rebound.text).toContain("--allowed-host evil.example");
  const page = await send(t.url, t.path, {
    headers: { Origin: EVIL, "Content-Type": "application/json" },
    body: t.body,
  });
  expect(page.text).toContain(`--cors ${EVIL}`);
}

describe("local services refuse what a web page sends", { timeout: CLI_TIMEOUT_MS }, () => {
  it("serve: every attack is refused before a model is called", async ({
    expect,
    onTestFinished,
  }) => {
    const s = await serveInProcess(onTestFinished, { args: ["--cors", STUDIO] });
    scriptAttemptsThenCheck(s.server);
    const t = {
      url: s.url,
      path: "/v1/chat/completions",
      body: JSON.stringify(ask()),
      server: s.server,
    };
    await refusesEveryAttack(t, expect);
    // A rebinding page could also read the model list or the health counters.
    const port = new URL(s.url).port;
    for (const path of ["/v1/models", "/health"]) {
      const r = await send(s.url, path, {
        method: "GET",
        headers: { Host: `evil.example:${port}` },
      });
      expect(r.status, path).toBe(403);
    }
    const preflight = await send(s.url, "/v1/chat/completions", {
      method: "OPTIONS",
      headers: { Origin: EVIL, "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    expect(upstream(t)).toBe(0);
  });

  it("serve: the studio's origin, curl without Origin, and a proxy's named host still work", async ({
    expect,
    onTestFinished,
  }) => {
    const s = await serveInProcess(onTestFinished, {
      args: ["--cors", STUDIO, "--allowed-host", "conductor.internal"],
    });
    const port = new URL(s.url).port;
    const body = JSON.stringify(ask());
    const json = { "Content-Type": "application/json" };
    for (const headers of [
      { ...json, Origin: STUDIO, "Sec-Fetch-Site": "same-site" },
      json,
      { ...json, Host: `localhost:${port}` },
      { ...json, Host: `[::1]:${port}` },
      { ...json, Host: "conductor.internal" },
      { "Content-Type": "application/json; charset=utf-8" },
    ]) {
      scriptAttemptsThenCheck(s.server);
      const r = await send(s.url, "/v1/chat/completions", { headers, body });
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect(JSON.parse(r.text)).toMatchObject({ choices: [{ message: { content: CHECKED } }] });
    }
    const allowed = await send(s.url, "/v1/chat/completions", {
      headers: { ...json, Origin: STUDIO },
      body,
    });
    expect(allowed.headers["access-control-allow-origin"]).toBe(STUDIO);
    const preflight = await send(s.url, "/v1/chat/completions", {
      method: "OPTIONS",
      headers: { Origin: STUDIO, "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe(STUDIO);
  });

  it("reward: every attack is refused before a worker is called; allowed callers still score", async ({
    expect,
    onTestFinished,
  }) => {
    const server = await startTestServer();
    server.setDefault("solver-a", { content: "Answer: 5050" });
    const resolved = resolveConfig(JSON.stringify(threeWorkerConfig(server)), {}, "training");
    if (!resolved.ok) throw new Error(resolved.message);
    const settings = parseRewardArgs(["--config", "-", "--port", "0", "--cors", STUDIO], {});
    const running = await startReward(settings, resolved, () => undefined);
    onTestFinished(async () => {
      await running.shutdown(0);
      await server.close();
    });
    const completion = `model_id = [0]\nsubtasks = ["Sum them."]\naccess_list = [[]]`;
    const body = JSON.stringify({
      items: [{ id: "a", question: QUESTION, completion, reference: "5050" }],
    });
    const t = { url: running.url, path: "/v1/rewards", body, server };
    await refusesEveryAttack(t, expect);
    const json = { "Content-Type": "application/json" };
    for (const headers of [json, { ...json, Origin: STUDIO }]) {
      server.reset();
      server.setDefault("solver-a", { content: "Answer: 5050" });
      const r = await send(running.url, "/v1/rewards", { headers, body });
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect(JSON.parse(r.text)).toMatchObject({ rewards: [{ id: "a", reward: 1 }] });
      expect(upstream(t)).toBe(1);
    }
  });
});
