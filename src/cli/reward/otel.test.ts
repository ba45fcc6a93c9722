// `conductor-studio reward --otlp-endpoint`: each scored item's run arrives at a local OTLP
// receiver as one whole trace tagged with its reward, and a bad option is refused before listening.
import { describe, it } from "vitest";
import {
  CLI_TIMEOUT_MS,
  QUESTION,
  harness,
  runCli,
  threeWorkerConfig,
} from "../../test-support/cli/cli-harness.ts";
import { startReceiver, wholeTraces } from "../../test-support/cli/otel-receiver.ts";
import { startRewardProcess } from "../../test-support/cli/reward-harness.ts";

const plan = (ids: number[]) => `model_id = [${ids.join(", ")}]
subtasks = [${ids.map(() => '"Sum the integers from 1 to 100."').join(", ")}]
access_list = [${ids.map(() => "[]").join(", ")}]`;

describe("conductor-studio reward --otlp-endpoint", { timeout: CLI_TIMEOUT_MS }, () => {
  it("sends each item's run as one whole trace with its reward", async ({
    expect,
    onTestFinished,
  }) => {
    const { server, file } = await harness(onTestFinished);
    // Like Phoenix: protobuf only (415 to JSON).
    const rx = await startReceiver({ protobufOnly: true });
    onTestFinished(() => rx.close());
    const config = await file("pool.json", threeWorkerConfig(server));
    server.setDefault("solver-a", { content: "Answer: 5050" });
    server.setDefault("solver-b", { content: "Answer: 5000" });
    const service = await startRewardProcess(["--config", config, "--otlp-endpoint", rx.url]);
    onTestFinished(async () => void (await service.stop()));
    const items = [
      { id: "right", question: QUESTION, completion: plan([0]), reference: "5050" },
      { id: "wrong", question: QUESTION, completion: plan([1]), reference: "5050" },
      { id: "prose", question: QUESTION, completion: "No plan here.", reference: "5050" },
    ];
    const r = await service.post({ items });
    expect(r.status).toBe(200);
    // The exporter batches in the background; stopping the service flushes what it holds.
    await service.stop();
    await rx.until((x) => wholeTraces(x.spans()).size >= 2);
    const traces = [...wholeTraces(rx.spans()).values()];
    const roots = traces.map((t) => t.find((s) => !s.parentSpanId)!.attrs);
    expect(roots.map((a) => [a["conductor.reward.item"], a["conductor.reward"]]).sort()).toEqual([
      ["right", 1],
      ["wrong", 0.5],
    ]);
    expect(traces.every((t) => t.some((s) => s.name.startsWith("invoke_agent")))).toBe(true);
    expect(rx.requests.every((q) => q.contentType === "application/x-protobuf")).toBe(true);
  });

  it("refuses a bad --otlp-endpoint before it listens", async ({ expect }) => {
    const r = await runCli(["reward", "--config", "pool.json", "--otlp-endpoint", "not a url"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/otlp-endpoint/);
  });
});
