import { readFile } from "node:fs/promises";
import { expect } from "@playwright/test";
import { HistoryPage } from "./history.ts";

/** An OTLP JSON file the studio offered, reduced to what the tests read. */
export interface TraceFile {
  name: string;
  spans: {
    traceId: string;
    name: string;
    parentSpanId?: string;
    attributes: { key: string; value: Record<string, unknown> }[];
  }[];
  text: string;
}

/** The studio with its OpenTelemetry actions and Settings → Tracing. */
export class TelemetryPage extends HistoryPage {
  /** Clicks an "Export … trace" button and reads the file it offers. */
  async exportTrace(testId: "run-otel" | "history-otel"): Promise<TraceFile> {
    const [download] = await Promise.all([
      this.page.waitForEvent("download"),
      this.byTestId(`${testId}-export`).click(),
    ]);
    const text = await readFile(await download.path(), "utf8");
    const doc = JSON.parse(text) as {
      resourceSpans: { scopeSpans: { spans: TraceFile["spans"] }[] }[];
    };
    return {
      name: download.suggestedFilename(),
      spans: doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)),
      text,
    };
  }

  /** Sets Settings → Tracing and closes Settings. */
  async setCollector(url: string, options: { content?: boolean; authorization?: string } = {}) {
    await this.byTestId("open-settings").click();
    await this.byTestId("otel-collector-url").fill(url);
    await this.byTestId("otel-content").setChecked(options.content ?? false);
    if (options.authorization)
      await this.byTestId("otel-authorization").fill(options.authorization);
    await expect(this.byTestId("otel-cors-note")).toContainText("PHOENIX_ALLOWED_ORIGINS=");
    await this.byTestId("settings-close").click();
  }
}
