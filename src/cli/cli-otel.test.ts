// OpenTelemetry from the command line over real HTTP: `otel` prints OTLP JSON, and `run`, `eval` and
// `serve` with --otlp-endpoint deliver whole traces to a local receiver that, like Phoenix, takes
// only protobuf (the default protocol) and answers 415 to JSON. `otel`, `run` and `serve`
// run once as child processes (runCli, startServe); the rest runs main in this process (runMain).
import { describe, it } from "vitest";
import { exportRun } from "../engine/run/export.ts";
import {
  twoRoundRun,
  QUESTION as FIXTURE_QUESTION,
} from "../test-support/engine/otel/otel-records.ts";
import {
  cliIt,
  CLI_TIMEOUT_MS,
  QUESTION,
  ask,
  evalArgs,
  readEvalResults,
  readExport,
  runCli,
  runMain,
  scriptAttemptsThenCheck,
  threeWorkerConfig,
} from "../test-support/cli/cli-harness.ts";
import { startReceiver, wholeTraces } from "../test-support/cli/otel-receiver.ts";
import type { ReceivedSpan, Receiver } from "../test-support/cli/otel-receiver.ts";
import { traceOf } from "../engine/otel/map.ts";
import { otlpRequest } from "../engine/otel/otlp.ts";
import type { OtlpSpan } from "../engine/otel/otlp.ts";

const pick = <T extends object>(x: T, keys: string[]) =>
  Object.fromEntries(keys.map((k) => [k, (x as Record<string, unknown>)[k]]));
import { startServe } from "../test-support/cli/serve-child.ts";

const AUTH = "Basic cGstbGYtMTIzOnNrLWxmLXNlY3JldC00NTY=";
const HEADERS_ENV = { CS_OTLP_HEADERS: `Authorization=${encodeURIComponent(AUTH)},x-tenant=lab` };

async function receiver(
  onFinished: (fn: () => Promise<void>) => void,
  refuse?: number,
  protobufOnly = true,
): Promise<Receiver> {
  const r = await startReceiver({ refuse, protobufOnly });
  onFinished(() => r.close());
  return r;
}

describe("conductor-studio otel", { timeout: CLI_TIMEOUT_MS }, () => {
  cliIt(
    "prints a run as one OTLP JSON trace, the same ids every time, contents only with --content",
    async ({ expect, h }) => {
      const file = await h.file("run.json", exportRun(twoRoundRun()));
      // One child process and main in this one: the ids do not come from the process.
      const [a, b, c, legacy] = await Promise.all([
        runCli(["otel", file]),
        runMain(["otel", file]),
        runMain(["otel", file, "--content"]),
        runMain(["otel", file, "--otel-conventions", "legacy"]),
      ]);
      expect(a.stdout).toContain('"key": "gen_ai.agent.name"');
      expect(a.stdout).not.toContain("gen_ai.workflow.name");
      expect(legacy.stdout).toContain('"key": "gen_ai.workflow.name"');
      expect(legacy.stdout).toContain('"stringValue": "semantic-conventions/v1.41.0"');
      expect(a.code).toBe(0);
      expect(a.stdout).toBe(b.stdout);
      const spans = (
        JSON.parse(a.stdout) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] }
      ).resourceSpans[0]!.scopeSpans[0]!.spans;
      expect(spans.map((s) => s.name)).toContain("invoke_agent Claude Sonnet 4");
      expect(spans).toHaveLength(13);
      expect(a.stdout).not.toContain(FIXTURE_QUESTION);
      expect(c.stdout).toContain(FIXTURE_QUESTION);
    },
  );

  it("prints its help, with an example", async ({ expect }) => {
    const r = await runMain(["otel", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/conductor-studio otel RUN\.json/);
    expect(r.stdout).toMatch(/^Examples:\n {2}conductor-studio otel run\.json --content/m);
  });

  cliIt("refuses a file that is not a run export with a clear message", async ({ expect, h }) => {
    const file = await h.file("notes.json", { hello: "world" });
    const r = await runMain(["otel", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/notes\.json: .*format/i);
    expect(r.stdout).toBe("");
  });
});

describe("--otlp-endpoint", { timeout: CLI_TIMEOUT_MS * 2 }, () => {
  cliIt(
    "run: the run arrives as one whole trace, with the headers from --otlp-headers-env",
    async ({ expect, h, onTestFinished }) => {
      const rx = await receiver(onTestFinished);
      scriptAttemptsThenCheck(h.server);
      const config = await h.file("config.json", threeWorkerConfig(h.server));
      const args = ["run", "--config", config, "--question", QUESTION, "--otlp-endpoint", rx.url];
      const r = await runCli([...args, "--otlp-headers-env", "CS_OTLP_HEADERS"], {
        env: HEADERS_ENV,
      });
      expect(r.code).toBe(0);
      const record = readExport(r.stdout).run;
      expect(rx.requests).toHaveLength(1);
      expect(rx.requests[0]!.contentType).toBe("application/x-protobuf");
      expect(rx.requests[0]!.scopes).toEqual([
        { "conductor.gen_ai.conventions": "semantic-conventions-genai/v0.1.0" },
      ]);
      expect(rx.requests[0]!.headers.authorization).toBe(AUTH);
      expect(rx.requests[0]!.headers["x-tenant"]).toBe("lab");
      const traces = wholeTraces(rx.spans());
      expect(traces.size).toBe(1);
      const spans = [...traces.values()][0]!;
      const root = spans.find((s) => !s.parentSpanId)!;
      expect(root.attrs).toMatchObject({
        "conductor.run.id": record.id,
        "conductor.run.status": "done",
      });
      const chats = spans.filter((s) => s.attrs["gen_ai.operation.name"] === "chat");
      expect(chats.map((s) => s.attrs["gen_ai.request.model"]).sort()).toEqual([
        "checker",
        "conductor-7b",
        "solver-a",
        "solver-b",
      ]);
      expect(chats.every((s) => s.attrs["gen_ai.provider.name"] === "openai_compatible")).toBe(
        true,
      );
      // The protobuf decodes to exactly the spans of the record's JSON export.
      const json = otlpRequest([traceOf(record)]).resourceSpans[0]!.scopeSpans[0]!.spans;
      const fields = (x: ReceivedSpan | OtlpSpan) => ({
        ...pick(x, ["traceId", "spanId", "parentSpanId", "name", "kind", "attributes", "status"]),
        ...pick(x, ["startTimeUnixNano", "endTimeUnixNano"]),
      });
      expect(rx.spans().map(fields)).toEqual(json.map(fields));
      expect(r.stderr).toMatch(
        /^\[otel\] sent 1 trace \(\d+ spans\) to http:\/\/127\.0\.0\.1:\d+\/v1\/traces$/m,
      );
      // Header values are secrets: never echoed.
      expect(r.stderr).not.toContain("cGstbGYt");
    },
  );

  cliIt(
    "run: --otlp-protocol http/json posts JSON; a protobuf-only collector's 415 says which to use",
    async ({ expect, h, onTestFinished }) => {
      const [phoenix, any] = [
        await receiver(onTestFinished),
        await receiver(onTestFinished, 0, false),
      ];
      scriptAttemptsThenCheck(h.server);
      const config = await h.file("config.json", threeWorkerConfig(h.server));
      const base = [
        "run",
        "--config",
        config,
        "--question",
        QUESTION,
        "--otlp-protocol",
        "http/json",
      ];
      const sent = await runMain([
        ...base,
        "--otlp-endpoint",
        any.url,
        "--otel-conventions",
        "legacy",
      ]);
      expect(sent.code, sent.stderr).toBe(0);
      expect(any.requests.map((r) => r.contentType)).toEqual(["application/json"]);
      const root = any.spans().find((s) => !s.parentSpanId)!;
      expect(root.attrs["gen_ai.workflow.name"]).toBe("conductor");
      expect(any.requests[0]!.scopes[0]).toEqual({
        "conductor.gen_ai.conventions": "semantic-conventions/v1.41.0",
      });
      scriptAttemptsThenCheck(h.server);
      const refused = await runMain([...base, "--otlp-endpoint", phoenix.url]);
      expect(refused.code, refused.stderr).toBe(0);
      expect(refused.stderr).toMatch(
        /\[otel\] could not send 1 trace .*does not take http\/json \(415.*try the protocol http\/protobuf/,
      );
      expect(phoenix.requests).toHaveLength(0);
    },
  );

  cliIt(
    "run: a collector that refuses costs a clear message, never the run or its record",
    async ({ expect, h, onTestFinished }) => {
      const rx = await receiver(onTestFinished, 401);
      scriptAttemptsThenCheck(h.server);
      const config = await h.file("config.json", threeWorkerConfig(h.server));
      const r = await runMain(
        [
          "run",
          "--config",
          config,
          "--question",
          QUESTION,
          "--otlp-endpoint",
          rx.url,
          "--otlp-headers-env",
          "CS_OTLP_HEADERS",
        ],
        { env: HEADERS_ENV },
      );
      expect(r.code).toBe(0);
      expect(readExport(r.stdout).run.status).toBe("done");
      expect(r.stderr).toMatch(/\[otel\] could not send 1 trace .*refused the credentials \(401/);
      expect(r.stderr).toMatch(/the runs are not affected/);
      expect(r.stderr).not.toContain("cGstbGYt");
    },
  );

  cliIt(
    "run: a bad endpoint or a missing headers variable is a usage error before anything runs",
    async ({ expect, h }) => {
      const config = await h.file("config.json", threeWorkerConfig(h.server));
      const base = ["run", "--config", config, "--question", QUESTION];
      const [bad, missing] = await Promise.all([
        runMain([...base, "--otlp-endpoint", "localhost:4318"]),
        runMain([
          ...base,
          "--otlp-endpoint",
          "http://127.0.0.1:4318",
          "--otlp-headers-env",
          "NOPE",
        ]),
      ]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--otlp-endpoint: .*http:\/\/ or https:\/\//);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(
        /--otlp-headers-env NOPE: that environment variable is not set/,
      );
      expect(h.server.requests).toHaveLength(0);
    },
  );

  cliIt(
    "eval: every item arrives as its own whole trace, tagged with the evaluation",
    async ({ expect, h, onTestFinished }) => {
      const rx = await receiver(onTestFinished);
      h.server.setDefault("conductor-7b", {
        content: 'model_id = [0]\nsubtasks = ["Answer it."]\naccess_list = [[]]',
      });
      h.server.setDefault("solver-a", { content: "Answer: 5050" });
      const config = await h.file("pool.json", threeWorkerConfig(h.server));
      const items = ["q1", "q2", "q3"].map((id) =>
        JSON.stringify({ id, question: QUESTION, answer: "5050" }),
      );
      const dataset = await h.file("questions.jsonl", items.join("\n"));
      const files = { config, dataset, out: `${h.dir}/results.jsonl` };
      const r = await runMain(
        evalArgs(files, "--strategies", "conductor", "--otlp-endpoint", rx.url),
      );
      expect(r.code).toBe(0);
      const results = await readEvalResults(files.out);
      const traces = wholeTraces(rx.spans());
      expect(traces.size).toBe(3);
      const roots = [...traces.values()].map((spans) => spans.find((s) => !s.parentSpanId)!);
      expect(roots.map((s) => s.attrs["conductor.eval.item"]).sort()).toEqual(["q1", "q2", "q3"]);
      expect(roots.map((s) => s.attrs["conductor.run.id"]).sort()).toEqual(
        results.map((x) => x.runId).sort(),
      );
      for (const root of roots)
        expect(root.attrs).toMatchObject({
          "conductor.eval.strategy": "conductor",
          "conductor.eval.correct": true,
          "session.id": "results.jsonl",
        });
    },
  );

  cliIt(
    "serve: a served request arrives as one whole trace once answered",
    async ({ expect, h, onTestFinished }) => {
      const rx = await receiver(onTestFinished);
      scriptAttemptsThenCheck(h.server);
      const config = await h.file("config.json", threeWorkerConfig(h.server));
      const serve = await startServe(
        ["--config", config, "--otlp-endpoint", rx.url],
        {},
        onTestFinished,
      );
      expect(serve.stderr()).toContain(`traces to ${rx.url}`);
      const answer = await serve.client().chat.completions.create(ask());
      expect(answer.choices[0]?.message.content).toBeTruthy();
      await rx.until((x) => x.spans().some((s) => !s.parentSpanId));
      const traces = wholeTraces(rx.spans());
      expect(traces.size).toBe(1);
      const spans = [...traces.values()][0]!;
      expect(spans.find((s) => !s.parentSpanId)!.attrs).toMatchObject({
        "conductor.run.status": "done",
        "http.response.status_code": 200,
      });
      expect(spans.filter((s) => s.name.startsWith("invoke_agent"))).toHaveLength(3);
      await serve.waitForLine(/\[serve\] otel: sent 1 trace/);
    },
  );
});
