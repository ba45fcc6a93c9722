// `serve` when the Conductor cannot plan: it is asked once more, then (with --fallback) a named
// worker answers alone, recorded as a fallback.
import { APIError } from "openai";
import { describe, it } from "vitest";
import {
  CHECKED,
  CLI_TIMEOUT_MS,
  ask,
  chatRequests,
  promptText,
  QUESTION,
} from "../../test-support/cli/cli-harness.ts";
import { readRuns } from "../../test-support/cli/serve-child.ts";
import { serveInProcess, serveIt } from "../../test-support/cli/serve-in-process.ts";

const TRUNCATED = 'model_id = [0, 1]\nsubtasks = ["Solve it.", "Check it and give the';

describe("serve falls back when the Conductor cannot plan", { timeout: CLI_TIMEOUT_MS }, () => {
  serveIt(
    "asks the Conductor once more, then answers plan_error without a client retry",
    async ({ expect, s }) => {
      s.server.setDefault("conductor-7b", TRUNCATED);
      const e = await s
        .client()
        .chat.completions.create(ask())
        .catch((e: unknown) => e);
      expect(e).toBeInstanceOf(APIError);
      expect(e).toMatchObject({ status: 502, code: "plan_error" });
      expect(chatRequests(s.server, "conductor-7b")).toHaveLength(2);
      // Streamed, the same failure comes after a 200: the record says both.
      const stream = await s.client().chat.completions.create({ ...ask(), stream: true });
      await (async () => {
        for await (const chunk of stream) void chunk;
      })().catch(() => undefined);
      await s.running.shutdown(0);
      const served = (await readRuns(s.runs)).map((l) => [
        l.served.http_status,
        l.served.error_code,
      ]);
      expect(served).toEqual([
        [502, "plan_error"],
        [200, "plan_error"],
      ]);
    },
  );

  it("with --fallback worker:NAME lets that worker answer alone", async ({
    expect,
    onTestFinished,
  }) => {
    const s = await serveInProcess(onTestFinished, { args: ["--fallback", "worker:Checker"] });
    s.server.setDefault("conductor-7b", TRUNCATED);
    s.server.script("checker", CHECKED);
    const r = await s
      .client()
      .chat.completions.create({ ...ask(), conductor_trace: true } as ReturnType<typeof ask>);
    expect(r.choices[0]?.message.content).toBe(CHECKED);
    expect(r).toMatchObject({
      conductor_trace: {
        status: "done",
        rounds: [
          {
            fallback: { worker_id: "w2", reason: { code: "unparseable_list" } },
            lists: null,
            steps: [{ worker_name: "Checker", status: "done" }],
          },
        ],
      },
    });
    expect(chatRequests(s.server, "conductor-7b")).toHaveLength(2);
    expect(promptText(chatRequests(s.server, "checker")[0])).toContain(QUESTION);
    await s.running.shutdown(0);
    const [line] = await readRuns(s.runs);
    expect(line?.run.rounds[0]?.fallback?.worker).toBe("w2");
    expect(line?.run.rounds[0]?.plan?.rejected).toHaveLength(1);
    expect(s.log.join("\n")).toContain("(fallback: unparseable_list)");
  });

  it("refuses to start with a --fallback worker the pool does not have", async ({
    expect,
    onTestFinished,
  }) => {
    const started = serveInProcess(onTestFinished, { args: ["--fallback", "worker:Nobody"] });
    await expect(started).rejects.toThrow(/--fallback worker:Nobody: no worker has that name/);
  });
});
