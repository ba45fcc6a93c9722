// The studio's "When the Conductor cannot plan" settings reach the runs it starts.
import { beforeEach, describe, expect, it } from "vitest";
import type { ChatBody } from "../../e2e/server/server.ts";
import { planNow } from "./run/controller.ts";
import { useStudio } from "./slices/store.ts";
import { numberedWorker, resetStudio, serverForFile } from "../test-support/state/studio-state.ts";

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

const workerCalls = (model: string) =>
  server().requests.filter((r) => (r.body as ChatBody | undefined)?.model === model).length;

describe("the Plan button's fallback worker", () => {
  it("answers when the plan still fails after the re-plan, on the canvas and in the record", async () => {
    useStudio.getState().setConductor({ replanOnce: true, fallbackWorker: "w1" });
    server().script("conductor", TRUNCATED, TRUNCATED);
    server().setDefault("m1", "42, said Worker 1 alone");
    await planNow();
    const s = useStudio.getState();
    expect(conductorCalls()).toBe(2);
    expect(workerCalls("m1")).toBe(1);
    expect(workerCalls("m0")).toBe(0);
    expect(s.phase).toBe("idle");
    expect(s.record).toMatchObject({ status: "done", answer: "42, said Worker 1 alone" });
    expect(s.record.rounds[0]?.fallback).toMatchObject({
      worker: "w1",
      reason: { code: "unparseable_list" },
    });
    // The canvas shows the one step that answered, with its result.
    const steps = s.history.present.steps;
    expect(steps.map((st) => st.worker)).toEqual(["w1"]);
    expect(s.results[steps[0]!.id]).toMatchObject({
      status: "done",
      output: "42, said Worker 1 alone",
    });
    expect(s.notice).toMatch(
      /^The Conductor could not plan \(A list in the Conductor's output could not be read:.*\), so Worker 1 answered alone instead, as set in Settings → Conductor\.$/,
    );
  });

  it("without the re-plan, falls back after the first failed plan; off, it runs nothing", async () => {
    useStudio.getState().setConductor({ fallbackWorker: "w0" });
    server().script("conductor", TRUNCATED);
    server().setDefault("m0", "alone");
    await planNow();
    expect(conductorCalls()).toBe(1);
    expect(useStudio.getState().record.rounds[0]?.fallback?.worker).toBe("w0");
    server().reset();
    useStudio.getState().setConductor({ fallbackWorker: "" });
    server().script("conductor", TRUNCATED);
    await planNow();
    const s = useStudio.getState();
    expect(workerCalls("m0") + workerCalls("m1")).toBe(0);
    expect(s.record).toMatchObject({ status: "failed", endReason: "plan_error" });
    expect(s.record.rounds[0]?.fallback).toBeUndefined();
    expect(s.history.present.steps).toEqual([]);
    expect(s.notice).toMatch(/^The Conductor's plan could not be used/);
  });
});
