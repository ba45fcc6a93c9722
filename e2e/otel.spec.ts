// The studio's OpenTelemetry export: a run as an OTLP JSON file, History's selection sent to a
// collector from the page (allowed by CORS, and refused without it), under the built app's CSP.
import { expect, test } from "@playwright/test";
import type { Receiver } from "../src/test-support/cli/otel-receiver.ts";
import { startReceiver, wholeTraces } from "../src/test-support/cli/otel-receiver.ts";
import { TelemetryPage } from "./pages/telemetry.ts";
import { withStudio } from "./support/studio.ts";
import { QUESTION, scriptAnswers, scriptPlan } from "./support/scenario.ts";

let studio: TelemetryPage;
const receivers: Receiver[] = [];

withStudio((s) => ({ studio } = s), {
  as: TelemetryPage,
  script: (s) => {
    scriptPlan(s);
    scriptAnswers(s, (w) => `${w.name} answers.`);
  },
  ask: QUESTION,
  plan: 3,
});
test.beforeEach(async () => {
  await studio.run();
  await expect(studio.byTestId("final-answer")).toContainText("answers.");
  await studio.waitIdle();
});
test.afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

const origin = () => new URL(studio.page.url()).origin;

test("exports the open run as one OTLP trace, without contents by default", async () => {
  const file = await studio.exportTrace("run-otel");
  expect(file.name).toMatch(/\.otlp\.json$/);
  const roots = file.spans.filter((s) => !s.parentSpanId);
  expect(roots.map((s) => s.name)).toEqual(["invoke_workflow conductor"]);
  expect(file.spans.filter((s) => s.name.startsWith("invoke_agent"))).toHaveLength(3);
  expect(file.spans.filter((s) => s.name.startsWith("chat "))).toHaveLength(4);
  expect(new Set(file.spans.map((s) => s.traceId)).size).toBe(1);
  expect(file.text).not.toContain(QUESTION);
  // Exporting again gives the same trace.
  expect((await studio.exportTrace("run-otel")).text).toBe(file.text);
});

test("sends History's selection to a collector that allows the studio's origin", async () => {
  // Like Phoenix: protobuf only, which the studio sends by default.
  const rx = await startReceiver({ cors: origin(), protobufOnly: true });
  receivers.push(rx);
  await studio.setCollector(rx.url, { content: true, authorization: "Basic cGs6c2s=" });
  await studio.openHistory();
  await studio.select(studio.entry(0));
  await studio.byTestId("history-otel-send").click();
  await expect(studio.byTestId("history-otel-status")).toHaveText(
    /^Sent 1 trace \(\d+ spans\) to /,
  );
  const traces = wholeTraces(rx.spans());
  expect(traces.size).toBe(1);
  expect(rx.requests[0]!.headers.authorization).toBe("Basic cGs6c2s=");
  expect(rx.requests[0]!.contentType).toBe("application/x-protobuf");
  const root = rx.spans().find((s) => !s.parentSpanId)!;
  expect(root.attrs["input.value"]).toBe(QUESTION);
  // The same selection also downloads, with the contents now opted in.
  expect((await studio.exportTrace("history-otel")).text).toContain(QUESTION);
});

test("says why a collector without CORS for the studio refused, and keeps the file export", async () => {
  const rx = await startReceiver();
  receivers.push(rx);
  await studio.setCollector(rx.url);
  await studio.byTestId("run-otel-send").click();
  await expect(studio.byTestId("run-otel-status")).toContainText("(CORS)");
  await expect(studio.byTestId("run-otel-status")).toContainText(
    `PHOENIX_ALLOWED_ORIGINS=${origin()}`,
  );
  expect(rx.requests).toHaveLength(0);
  expect((await studio.exportTrace("run-otel")).spans.length).toBeGreaterThan(0);
});
