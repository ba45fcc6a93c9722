// The studio's "When the Conductor cannot plan" settings reach the runs it starts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ChatBody, TestServer } from "../../e2e/server/server.ts";
import { startTestServer } from "../../e2e/server/server.ts";
import type { Worker } from "../engine/schema/worker.ts";
import { planNow } from "./controller.ts";
import { useStudio } from "./store.ts";

const initial = useStudio.getState();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const worker = (i: number): Worker => ({
  id: `w${i}`,
  name: `Worker ${i}`,
  kind: "openai",
  baseURL: server.baseURL,
  model: `m${i}`,
  temperature: 0.2,
  maxTokens: 256,
  prefill: false,
});
const PLAN = 'model_id = [0]\nsubtasks = ["Solve it"]\naccess_list = [[]]';
const TRUNCATED = 'model_id = [0, 1]\nsubtasks = ["Solve it", "Check the';
const conductorCalls = () =>
  server.requests.filter((r) => (r.body as ChatBody | undefined)?.model === "conductor").length;

beforeEach(() => {
  server.reset();
  useStudio.setState(initial, true);
  const s = useStudio.getState();
  s.setPool([worker(0), worker(1)]);
  s.setConductor({ backend: "remote", baseURL: server.baseURL, model: "conductor" });
  s.setQuestion("What is 6 times 7?");
});

describe("asking the Conductor once more", () => {
  it("is off by default: a plan that does not parse is shown as it came", async () => {
    server.script("conductor", TRUNCATED, PLAN);
    await planNow();
    expect(useStudio.getState().record.rounds[0]?.plan?.error?.code).toBe("unparseable_list");
    expect(conductorCalls()).toBe(1);
  });

  it("when on, plans again and keeps the rejected output on the record", async () => {
    useStudio.getState().setConductor({ replanOnce: true });
    server.script("conductor", TRUNCATED, PLAN);
    await planNow();
    const plan = useStudio.getState().record.rounds[0]?.plan;
    expect(plan?.error).toBeNull();
    expect(plan?.raw).toBe(PLAN);
    expect(plan?.rejected).toMatchObject([{ raw: TRUNCATED }]);
    expect(conductorCalls()).toBe(2);
  });
});
