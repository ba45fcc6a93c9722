/**
 * The worker's side of worker-protocol.ts: holds one engine and answers the page's messages. The
 * engine comes from `lib` (WebLLM in worker.ts, a scripted engine in tests), so this file imports
 * no WebLLM itself. Messages are handled as they arrive, not in turn: an `unload` must reach a
 * `reload` still downloading, as WebLLM's own worker handler allows.
 */
import type { ModelRecordLike } from "./catalogue.ts";
import { errorText } from "./webllm-errors.ts";
import type { SmallChunk, SmallEngine } from "./engine-types.ts";
import type { InitProgressReportLike } from "./progress.ts";
import type { PageMessage, Port, WorkerMessage } from "./worker-protocol.ts";

/** What the host needs of WebLLM. */
export interface EngineLib {
  /** A new engine that knows WebLLM's prebuilt records and `customRecords`. */
  createEngine(
    customRecords: readonly ModelRecordLike[],
    onProgress: (report: InitProgressReportLike) => void,
  ): SmallEngine;
  deleteModel(modelId: string, customRecords: readonly ModelRecordLike[]): Promise<void>;
}

/** Answers the page on `port` until the worker is terminated. */
export function serveEngine(port: Port<WorkerMessage, PageMessage>, lib: EngineLib): void {
  let customRecords: readonly ModelRecordLike[] = [];
  let engine: SmallEngine | null = null;
  const closed = new Set<number>();
  const engineNow = () =>
    (engine ??= lib.createEngine(customRecords, (report) =>
      port.postMessage({ kind: "progress", report }),
    ));

  const answer = async (id: number, work: () => Promise<string | undefined | void>) => {
    try {
      const text = await work();
      port.postMessage({ kind: "done", id, ...(typeof text === "string" ? { text } : {}) });
    } catch (e: unknown) {
      port.postMessage({ kind: "failed", id, error: errorText(e) });
    }
  };

  const chat = async (id: number, chunks: AsyncIterable<SmallChunk>) => {
    port.postMessage({ kind: "started", id });
    const it = chunks[Symbol.asyncIterator]();
    try {
      for (;;) {
        if (closed.has(id)) {
          await it.return?.();
          return;
        }
        const r = await it.next();
        if (r.done) return;
        port.postMessage({ kind: "chunk", id, chunk: r.value });
      }
    } finally {
      closed.delete(id);
    }
  };

  port.addEventListener("message", (event) => {
    const m = event.data;
    switch (m.kind) {
      case "init":
        customRecords = m.customRecords;
        return;
      case "interrupt":
        engine?.interruptGenerate();
        return;
      case "close":
        closed.add(m.id);
        return;
      case "reload":
        void answer(m.id, () => engineNow().reload(m.modelId, m.chatOpts));
        return;
      case "unload":
        void answer(m.id, async () => engine?.unload());
        return;
      case "stats":
        void answer(m.id, async () => engine?.runtimeStatsText?.());
        return;
      case "delete":
        void answer(m.id, () => lib.deleteModel(m.modelId, customRecords));
        return;
      case "chat":
        void answer(m.id, async () =>
          chat(m.id, await engineNow().chat.completions.create(m.request)),
        );
        return;
      default: {
        const never: never = m;
        return never;
      }
    }
  });
}
