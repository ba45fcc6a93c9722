// The studio's "When the Conductor cannot plan" settings reach the runs it starts.
import { beforeEach, describe, expect, it } from "vitest";
import type { ChatBody } from "../../e2e/server/server.ts";
import { planNow } from "./controller.ts";
import { useStudio } from "./store.ts";
import { numberedWorker, resetStudio, serverForFile } from "./test-fixtures.ts";

const server = serverForFile();

const worker = (i: number) => numberedWorker(server(), i);
const PLAN = 'model_id = [0]\nsubtasks = ["Solve it"]\naccess_list = [[]]';
const TRUNCATED = 'model_id = [0, 1]\nsubtasks = ["Solve it", "Check the';
const conductorCalls = () =>
  server().requests.filter((r) => (r.body as ChatBody | undefined)?.model === "conductor").length;

beforeEach(() => {
  server().reset();
  resetStudio();
  const s = useStudio.getState();
  s.setPool([worker(0), worker(1)]);
  s.setConductor({ backend: "remote", baseURL: server().baseURL, model: "conductor" });
  s.setQuestion("What is 6 times 7?");
});

describe("asking the Conductor once more", () => {
  it("is off by default: a plan that does not parse is shown as it came", async () => {
    server().script("conductor", TRUNCATED, PLAN);
    await planNow();
    expect(useStudio.getState().record.rounds[0]?.plan?.error?.code).toBe("unparseable_list");
    expect(conductorCalls()).toBe(1);
  });

  it("when on, plans again and keeps the rejected output on the record", async () => {
    useStudio.getState().setConductor({ replanOnce: true });
    server().script("conductor", TRUNCATED, PLAN);
    await planNow();
    const plan = useStudio.getState().record.rounds[0]?.plan;
    expect(plan?.error).toBeNull();
    expect(plan?.raw).toBe(PLAN);
    expect(plan?.rejected).toMatchObject([{ raw: TRUNCATED }]);
    expect(conductorCalls()).toBe(2);
  });
});
