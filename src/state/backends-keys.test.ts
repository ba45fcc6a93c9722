import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../e2e/server/server.ts";
import { startTestServer } from "../../e2e/server/server.ts";
import type { Worker } from "../engine/schema/worker.ts";
import { collect } from "../engine/llm/types.ts";
import { conductorBackend, workerBackend } from "./backends.ts";
import { useStudio } from "./store.ts";

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer(), startTestServer()]);
  a.setDefault("ma", "from a");
  b.setDefault("mb", "from b");
  a.setDefault("conductor-m", "plan");
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

const worker = (id: string, baseURL: string, model: string): Worker => ({
  id,
  name: id,
  kind: "openai",
  baseURL,
  model,
  temperature: 0.2,
  maxTokens: 16,
  prefill: false,
});

const request = {
  messages: [{ role: "user" as const, content: "Hi" }],
  temperature: 0,
  maxTokens: 16,
};
const authOf = (server: TestServer) =>
  server.requests.filter((r) => r.method === "POST").map((r) => r.headers.authorization);

describe("keys reach only their own worker's endpoint", () => {
  it("sends each worker's key to its base URL and no other key anywhere", async () => {
    const wa = worker("wa", a.baseURL, "ma");
    const wb = worker("wb", b.baseURL, "mb");
    const keyless = worker("wc", b.baseURL, "mb");
    useStudio.setState({
      pool: [wa, wb, keyless],
      keys: { wa: "sk-key-for-a-000", wb: "sk-key-for-b-000", conductor: "sk-conductor-000" },
      conductor: {
        ...useStudio.getState().conductor,
        backend: "remote",
        baseURL: a.baseURL,
        model: "conductor-m",
      },
    });
    const s = useStudio.getState();
    const signal = new AbortController().signal;
    await collect(workerBackend(s, wa), request, signal);
    await collect(workerBackend(s, wb), request, signal);
    await collect(workerBackend(s, keyless), request, signal);
    const conductor = conductorBackend(s);
    if (typeof conductor === "string") throw new Error(conductor);
    await collect(conductor, request, signal);

    expect(authOf(a)).toEqual(["Bearer sk-key-for-a-000", "Bearer sk-conductor-000"]);
    expect(authOf(b)).toEqual(["Bearer sk-key-for-b-000", undefined]);
  });
});
