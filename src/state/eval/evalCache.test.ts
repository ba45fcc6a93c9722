import "fake-indexeddb/auto";
import { Dexie } from "dexie";
import { IDBObjectStore } from "fake-indexeddb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ChatBody, TestServer } from "../../../e2e/server/server.ts";
import { startTestServer } from "../../../e2e/server/server.ts";
import { SAMPLE_SETS } from "../../engine/eval/dataset/samples.ts";
import { summarise } from "../../engine/eval/report.ts";
import { latestResults } from "../../engine/eval/schema.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { INITIAL_SETUP } from "../slices/eval.ts";
import { findResumable, loadSample, resumeStored, startEvaluation } from "./evalController.ts";
import { setEvalStore } from "./evalStore.ts";
import { createDexieEvalStore } from "./evalStore.ts";
import { setHeader } from "../storage/keyring.ts";
import { createIdbCacheStore } from "../storage/responseCacheStore.ts";
import { useStudio } from "../slices/store.ts";
import { setStudioCacheStore } from "./studioCache.ts";

const initialStudio = useStudio.getState();
let server: TestServer;
let cacheName = "";
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const PRICE = { input: 2, output: 10 };
const worker = (name: string): Worker => ({
  id: name,
  name,
  kind: "openai",
  baseURL: server.baseURL,
  model: name,
  temperature: 0.2,
  maxTokens: 64,
  prefill: false,
  price: PRICE,
});

const FACTS = SAMPLE_SETS.find((s) => s.id === "factual")!;
const expectedOf = (b: ChatBody) =>
  FACTS.items.find((i) => JSON.stringify(b.messages).includes(i.question))?.expected ?? "?";
const chatCalls = () => server.requests.filter((r) => r.method === "POST").length;

beforeEach(() => {
  server.reset();
  useStudio.setState(initialStudio, true);
  useStudio.getState().setPool([worker("right"), worker("wrong")]);
  setEvalStore(createDexieEvalStore(`eval-cache-${Math.random()}`));
  cacheName = `response-cache-${Math.random()}`;
  setStudioCacheStore(createIdbCacheStore(cacheName));
  server.setDefault("right", (b) => `Answer: ${expectedOf(b)}`);
  server.setDefault("wrong", "Answer: I do not know");
  loadSample(FACTS);
  useStudio.getState().patchEvalSetup({ strategies: ["single:right", "single:wrong"] });
});

async function evaluate() {
  await startEvaluation();
  const s = useStudio.getState();
  expect(s.evalPhase).toBe("finished");
  return {
    results: s.evalResults,
    report: summarise(s.evalResults, ["single:right", "single:wrong"]),
  };
}

/** Every stored row of the cache database, as text. */
async function storedText(): Promise<string> {
  const db = new Dexie(cacheName);
  db.version(1).stores({ entries: "key, size" });
  const rows = await db.table("entries").toArray();
  db.close();
  return JSON.stringify(rows);
}

describe("Evaluate's response cache", () => {
  it("is on by default, read-write", () => {
    expect(INITIAL_SETUP).toMatchObject({ cache: true, cacheMode: "read-write" });
  });

  it("answers an evaluation run again (a scorer change) from the cache: no upstream call, no cost", async () => {
    useStudio.getState().patchEvalSetup({ scorer: "exact" });
    const first = await evaluate();
    expect(first.results.every((r) => r.scoredBy?.id === "exact")).toBe(true);
    expect(chatCalls()).toBe(20);
    expect(first.results.every((r) => !r.cachedCalls && r.cost > 0)).toBe(true);
    const spent = first.results.reduce((n, r) => n + r.cost, 0);
    useStudio.getState().patchEvalSetup({ scorer: "contains" });
    const second = await evaluate();
    expect(chatCalls()).toBe(20);
    expect(second.results).toHaveLength(20);
    expect(second.results.every((r) => r.cachedCalls === 1 && r.cost === 0)).toBe(true);
    // The same answers, scored by the new scorer.
    const answers = (rs: typeof first.results) =>
      rs.map((r) => `${r.strategy} ${r.item}: ${r.answer}`).sort();
    expect(answers(second.results)).toEqual(answers(first.results));
    expect(second.results.filter((r) => r.correct).length).toBe(10);
    expect(second.results.every((r) => r.scoredBy?.id === "contains")).toBe(true);
    const cached = second.report.reduce((n, r) => n + r.cachedCalls, 0);
    const saved = second.report.reduce((n, r) => n + r.savedCost, 0);
    expect(cached).toBe(20);
    expect(saved).toBeCloseTo(spent, 10);
    expect(first.report.every((r) => r.cachedCalls === 0 && r.savedCost === 0)).toBe(true);
  });

  it("answers the Conductor's plans from the cache too: a conductor evaluation run again calls nobody", async () => {
    const s = useStudio.getState();
    s.setConductor({
      backend: "remote",
      baseURL: server.baseURL,
      model: "conductor",
      price: { input: 1, output: 1 },
    });
    server.setDefault(
      "conductor",
      'One worker.\nmodel_id = [0]\nsubtasks = ["Answer the question."]\naccess_list = [[]]',
    );
    useStudio.getState().patchEvalSetup({ strategies: ["conductor"] });
    const first = await evaluate();
    const conductorCalls = () =>
      server.requests.filter((r) => (r.body as ChatBody | undefined)?.model === "conductor").length;
    expect(conductorCalls()).toBe(10);
    expect(chatCalls()).toBe(20);
    expect(first.results.filter((r) => r.correct)).toHaveLength(10);
    const second = await evaluate();
    expect(chatCalls()).toBe(20);
    // Each item: its plan and its one step, both from the cache.
    expect(second.results.every((r) => r.cachedCalls === 2 && r.cost === 0)).toBe(true);
    expect(second.results.filter((r) => r.correct)).toHaveLength(10);
  });

  it("resumed after a reload, a repeat makes its own call, never another repeat's answer", async () => {
    // Every answer is new; the second ask of each question fails (401: not retried), so session 1
    // ends with one repeat of each item done and the other errored, to run again on resume.
    const asked = new Map<string, number>();
    let take = 0;
    server.setDefault("right", (b) => {
      const q = expectedOf(b);
      asked.set(q, (asked.get(q) ?? 0) + 1);
      return asked.get(q) === 2 ? { status: 401 } : `Take ${take++}.\nAnswer: ${q}`;
    });
    useStudio.getState().patchEvalSetup({ strategies: ["single:right"], repeats: 2 });
    await startEvaluation();
    let s = useStudio.getState();
    expect(s.evalResults.filter((r) => r.error?.code === "auth")).toHaveLength(10);
    expect(chatCalls()).toBe(20);
    // A reload: nothing of the session is left but what was stored.
    useStudio.setState({ evalResults: [], evaluation: null, evalResumable: null });
    await findResumable();
    await resumeStored(true);
    s = useStudio.getState();
    expect(s.evalResumable).toBeNull();
    // The ten errored repeats asked the provider; none was answered with its sibling's answer.
    expect(chatCalls()).toBe(30);
    const done = latestResults(s.evalResults);
    expect(done.filter((r) => r.error === null)).toHaveLength(20);
    expect(done.every((r) => !r.cachedCalls)).toBe(true);
    expect(new Set(done.map((r) => r.answer)).size).toBe(20);
    // A new evaluation of the same questions, strategy and repeats: each task its own answers.
    const again = await evaluate();
    expect(chatCalls()).toBe(30);
    expect(again.results.every((r) => r.cachedCalls === 1 && r.cost === 0)).toBe(true);
    const byTask = (rs: typeof done) => rs.map((r) => `${r.item} ${r.repeat}: ${r.answer}`).sort();
    expect(byTask(again.results)).toEqual(byTask(done));
  });

  it("off, or in refresh mode, calls the provider again; read-only never stores", async () => {
    useStudio.getState().patchEvalSetup({ cacheMode: "read-only" });
    await evaluate();
    expect(chatCalls()).toBe(20);
    expect(await storedText()).toBe("[]");
    useStudio.getState().patchEvalSetup({ cacheMode: "read-write" });
    await evaluate();
    expect(chatCalls()).toBe(40);
    useStudio.getState().patchEvalSetup({ cache: false });
    await evaluate();
    expect(chatCalls()).toBe(60);
    useStudio.getState().patchEvalSetup({ cache: true, cacheMode: "refresh" });
    server.setDefault("wrong", "Answer: still unsure");
    const refreshed = await evaluate();
    expect(chatCalls()).toBe(80);
    expect(refreshed.results.some((r) => r.cachedCalls)).toBe(false);
    // Refresh overwrote the stored answers: read-write now replays the new ones.
    useStudio.getState().patchEvalSetup({ cacheMode: "read-write" });
    const replayed = await evaluate();
    expect(chatCalls()).toBe(80);
    const wrong = replayed.results.find((r) => r.strategy === "single:wrong");
    expect(wrong?.answer).toContain("still unsure");
  });

  it("never stores a key or a secret header value (attack)", async () => {
    const KEY = "sk-cache-attack-key-0123456789";
    const SECRET = "Bearer hdr-cache-attack-secret-987";
    for (const id of ["right", "wrong"]) {
      useStudio.getState().setKey(id, KEY);
      setHeader(id, "X-Secret-Auth", SECRET, true);
    }
    await evaluate();
    // The secrets were really in play: the server got them on every call.
    const posts = server.requests.filter((r) => r.method === "POST");
    expect(posts.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(posts.every((r) => r.headers["x-secret-auth"] === SECRET)).toBe(true);
    const text = await storedText();
    expect(text.length).toBeGreaterThan(1000);
    for (const needle of [KEY, SECRET, "hdr-cache-attack-secret", "X-Secret-Auth", "x-secret-auth"])
      expect(text).not.toContain(needle);
    expect(text.toLowerCase()).not.toContain("authorization");
  });

  it("a full disk makes every write a miss: the evaluation finishes and says why", async () => {
    const proto = IDBObjectStore.prototype as { put: IDBObjectStore["put"] };
    const put = proto.put;
    proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore["put"]>) {
      // Only the cache's writes fail: the evaluation's own rows still go in.
      if (this.name === "entries") throw new DOMException("full", "QuotaExceededError");
      return put.apply(this, args);
    };
    try {
      const { results } = await evaluate();
      expect(results).toHaveLength(20);
      expect(results.filter((r) => r.correct).length).toBe(10);
      expect(results.every((r) => r.error === null)).toBe(true);
    } finally {
      proto.put = put;
    }
    expect(useStudio.getState().evalMessage).toMatch(
      /^20 answer\(s\) were not stored in the response cache\. This browser has no room left for the response cache/,
    );
    await evaluate();
    expect(chatCalls()).toBe(40);
  });
});
