import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TestServer } from "../../../e2e/server/server.ts";
import { startTestServer } from "../../../e2e/server/server.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { collect } from "../../engine/llm/types.ts";
import { exportPool } from "../../engine/pool/transfer.ts";
import { conductorBackend, workerBackend } from "./backends.ts";
import { setHeader } from "../storage/keyring.ts";
import { changeProvider, importPoolFile } from "../slices/pool.ts";
import { useStudio } from "../slices/store.ts";

const initial = useStudio.getState();
beforeEach(() => {
  useStudio.setState(initial, true);
  a.reset();
  b.reset();
  a.setDefault("ma", "from a");
  b.setDefault("mb", "from b");
  a.setDefault("conductor-m", "plan");
  b.setDefault("conductor-m", "plan");
});

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
      conductor: {
        ...useStudio.getState().conductor,
        backend: "remote",
        baseURL: a.baseURL,
        model: "conductor-m",
      },
    });
    const st = useStudio.getState();
    st.setKey("wa", "sk-key-for-a-000");
    st.setKey("wb", "sk-key-for-b-000");
    st.setKey("conductor", "sk-conductor-000");
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

const KEY = "sk-bound-to-a-0000";
const signal = new AbortController().signal;
/** Every key-bearing header any server received. */
const secretsAt = (server: TestServer) =>
  server.requests.flatMap((r) =>
    [r.headers.authorization, r.headers["helicone-auth"]].filter((h) => h !== undefined),
  );

async function callWorker(id: string): Promise<string> {
  const s = useStudio.getState();
  const w = s.pool.find((x) => x.id === id);
  if (!w) throw new Error(id);
  try {
    return (await collect(workerBackend(s, w), request, signal)).text;
  } catch (e: unknown) {
    return e instanceof Error ? e.message : String(e);
  }
}

describe("a key never follows its worker to another origin", () => {
  beforeEach(() => {
    useStudio.setState({ pool: [worker("w", a.baseURL, "ma")] });
    useStudio.getState().setKey("w", KEY);
  });

  it("sends the key to the origin it was entered for", async () => {
    expect(await callWorker("w")).toBe("from a");
    expect(authOf(a)).toEqual([`Bearer ${KEY}`]);
  });

  it("a base URL edit: no request at all, a message that asks for a key, then confirm", async () => {
    useStudio.getState().updateWorker("w", { baseURL: b.baseURL, model: "mb" });
    expect(await callWorker("w")).toMatch(/entered for http:\/\/127\.0\.0\.1:\d+ and is not sent/);
    expect(b.requests).toHaveLength(0);
    useStudio.getState().confirmKey("w");
    expect(await callWorker("w")).toBe("from b");
    expect(authOf(b)).toEqual([`Bearer ${KEY}`]);
  });

  it("a provider switch: the key is not sent to the new provider", async () => {
    const w = useStudio.getState().pool[0];
    if (!w) throw new Error("no worker");
    changeProvider(w, "openrouter");
    expect(useStudio.getState().pool[0]?.baseURL).toMatch(/openrouter/);
    expect(await callWorker("w")).toMatch(/is not sent to https:\/\/openrouter\.ai/);
  });

  it("a pool file reusing the id at another origin: imported, the key held back", async () => {
    const file = exportPool([worker("w", b.baseURL, "mb")]);
    const result = importPoolFile(file);
    expect(result).toEqual({ ok: true, keys: expect.stringMatching(/1 key not sent/) as string });
    expect(await callWorker("w")).toMatch(/not sent/);
    expect(secretsAt(b)).toEqual([]);
  });

  it("a pool file at the same origin keeps the key, and says so", () => {
    const result = importPoolFile(exportPool([worker("w", `${a.baseURL}/`, "ma")]));
    expect(result).toEqual({ ok: true, keys: "1 key kept for the same endpoint." });
  });

  it("the Conductor's key stays with the Conductor's origin", () => {
    useStudio
      .getState()
      .setConductor({ backend: "remote", baseURL: a.baseURL, model: "conductor-m" });
    useStudio.getState().setKey("conductor", "sk-conductor-a-000");
    useStudio.getState().setConductor({ baseURL: b.baseURL });
    const backend = conductorBackend(useStudio.getState());
    expect(backend).toMatch(/The Conductor's key was entered for/);
    expect(b.requests).toHaveLength(0);
  });

  it("secret header values are bound the same way, and a plain header is sent as written", async () => {
    setHeader("w", "Helicone-Auth", "Bearer sk-helicone-000", true);
    setHeader("w", "X-Title", "studio", false);
    expect(useStudio.getState().pool[0]?.headers).toEqual({
      "Helicone-Auth": "[redacted]",
      "X-Title": "studio",
    });
    expect(await callWorker("w")).toBe("from a");
    const sent = a.requests.find((r) => r.method === "POST")?.headers;
    expect(sent?.["helicone-auth"]).toBe("Bearer sk-helicone-000");
    expect(sent?.["x-title"]).toBe("studio");
    // Moving the worker holds the header secret back too, even once the key is re-entered.
    useStudio.getState().updateWorker("w", { baseURL: b.baseURL, model: "mb" });
    useStudio.getState().setKey("w", "sk-new-key-for-b-000");
    expect(await callWorker("w")).toMatch(/header value was entered for/);
    expect(secretsAt(b)).toEqual([]);
  });
});

describe("ids that name another owner's secret get nothing", () => {
  it('a worker called "conductor" at another origin never gets the Conductor\'s key', async () => {
    useStudio
      .getState()
      .setConductor({ backend: "remote", baseURL: a.baseURL, model: "conductor-m" });
    useStudio.getState().setKey("conductor", "sk-conductor-a-000");
    useStudio.setState({ pool: [worker("conductor", b.baseURL, "mb")] });
    expect(await callWorker("conductor")).toMatch(/not sent/);
    expect(secretsAt(b)).toEqual([]);
  });

  it("a pool file with such ids is refused", () => {
    for (const id of ["conductor", "w\u001fheader:x-key"]) {
      const result = importPoolFile(exportPool([worker(id, b.baseURL, "mb")]));
      expect(result.ok).toBe(false);
    }
  });
});
