import { beforeEach, describe, expect, it } from "vitest";
import {
  addWorkerFrom,
  changeBaseURL,
  changeModel,
  changeProvider,
  importPoolText,
  loadPaperPool,
  moveWorker,
  poolExportText,
  removeWorker,
  shareKeyWithOrigin,
} from "./slices/pool.ts";
import { useStudio } from "./slices/store.ts";

const initial = useStudio.getState();
beforeEach(() => useStudio.setState(initial, true));
const pool = () => useStudio.getState().pool;
const byId = (id: string) => pool().find((w) => w.id === id);

describe("pool editor actions", () => {
  it("a model's list price follows the model unless the user typed a price", () => {
    const id = addWorkerFrom("openai");
    expect(byId(id)?.price).toEqual({ input: 1.25, output: 10 });
    changeModel(byId(id)!, "gpt-5-mini");
    expect(byId(id)?.price).toEqual({ input: 0.25, output: 2 });
    changeModel(byId(id)!, "some-unknown-model");
    expect(byId(id)?.price).toBeUndefined();
    useStudio.getState().updateWorker(id, { price: { input: 9, output: 9 } });
    changeModel(byId(id)!, "gpt-5");
    expect(byId(id)?.price).toEqual({ input: 9, output: 9 });
  });

  it("switching provider brings its base URL and headers", () => {
    const id = addWorkerFrom("openai");
    changeProvider(byId(id)!, "anthropic");
    expect(byId(id)).toMatchObject({
      provider: "anthropic",
      baseURL: "https://api.anthropic.com/v1",
      headers: { "anthropic-dangerous-direct-browser-access": "true" },
    });
    changeProvider(byId(id)!, "openrouter");
    expect(byId(id)?.headers).toBeUndefined();
  });

  it("a name given from the model follows the model; a typed one stays", () => {
    const id = addWorkerFrom("openai");
    changeModel(byId(id)!, "gpt-5");
    // A copy is named from its model, numbered: it follows its own model once that changes.
    const copy = { ...byId(id)!, id: "copy", name: "gpt-5 2" };
    useStudio.getState().addWorker(copy);
    changeModel(byId("copy")!, "gpt-5-mini");
    expect(byId("copy")?.name).toBe("gpt-5-mini");
    changeModel(byId("copy")!, "gpt-5");
    expect(byId("copy")?.name).toBe("gpt-5 2");
    useStudio.getState().updateWorker("copy", { name: "My reviewer" });
    changeModel(byId("copy")!, "gpt-5-nano");
    expect(byId("copy")?.name).toBe("My reviewer");
  });

  it("the provider follows the base URL", () => {
    const id = addWorkerFrom("anthropic");
    changeBaseURL(byId(id)!, "http://127.0.0.1:8080/v1");
    expect(byId(id)).toMatchObject({ provider: "custom", baseURL: "http://127.0.0.1:8080/v1" });
    // Its headers stay: a proxy in front of the provider still needs them.
    expect(byId(id)?.headers).toEqual({ "anthropic-dangerous-direct-browser-access": "true" });
    changeBaseURL(byId(id)!, "https://api.openai.com/v1");
    expect(byId(id)?.provider).toBe("openai");
    // Another path at the same origin is still that provider.
    changeBaseURL(byId(id)!, "https://api.openai.com/v2");
    expect(byId(id)?.provider).toBe("openai");
  });

  it("reorders, and removing a worker forgets its key", () => {
    const a = addWorkerFrom("openai");
    const b = addWorkerFrom("groq");
    moveWorker(0, 1);
    expect(pool().map((w) => w.id)).toEqual([b, a]);
    moveWorker(0, -1); // out of range: nothing happens
    expect(pool().map((w) => w.id)).toEqual([b, a]);
    useStudio.getState().setKey(a, "sk-a-000000");
    removeWorker(a);
    expect(useStudio.getState().keys).toEqual({});
  });

  it("shares a key only with workers of the same origin", () => {
    loadPaperPool(); // five OpenRouter workers, Anthropic, OpenAI
    useStudio.getState().setKey("paper-0", "sk-or-000000");
    expect(shareKeyWithOrigin(byId("paper-0")!)).toBe(4);
    expect(Object.keys(useStudio.getState().keys).sort()).toEqual([
      "paper-0",
      "paper-3",
      "paper-4",
      "paper-5",
      "paper-6",
    ]);
  });

  it("exports without keys and imports, forgetting keys of workers that left", () => {
    loadPaperPool();
    useStudio.getState().setKey("paper-1", "sk-anthropic-000000");
    const text = poolExportText();
    expect(text).not.toContain("sk-anthropic-000000");
    const one = JSON.parse(text) as { workers: unknown[] };
    expect(importPoolText(JSON.stringify({ ...one, workers: one.workers.slice(2, 3) }))).toBeNull();
    expect(pool().map((w) => w.name)).toEqual(["GPT-5"]);
    expect(useStudio.getState().keys).toEqual({});
    expect(importPoolText("{")).toMatch(/not valid JSON/);
    expect(pool()).toHaveLength(1);
  });

  it("adds in-browser and Conductor workers without an endpoint", () => {
    expect(byId(addWorkerFrom("in-browser"))).toMatchObject({ kind: "webllm", baseURL: "" });
    expect(byId(addWorkerFrom("conductor"))).toMatchObject({ kind: "conductor" });
  });
});
