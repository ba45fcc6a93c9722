/**
 * The studio's own messages between the page and the model worker (worker.ts), and the page's
 * side of them. The page imports only this file, never WebLLM: the library (several MB) is loaded
 * once, by the worker, instead of once there and once again on the main thread.
 * Plain TS over a `MessagePort`-like object, so node tests run both sides over a MessageChannel.
 */
import type { ModelRecordLike } from "./catalogue.ts";
import type {
  SmallChatOptions,
  SmallChatRequest,
  SmallChunk,
  SmallEngine,
} from "./engine-types.ts";
import type { InitProgressReportLike } from "./progress.ts";

/** What the page asks; every request but `init`, `interrupt` and `close` gets one reply by id. */
export type PageMessage =
  /** Sent first: the custom records to add to WebLLM's prebuilt ones. */
  | { kind: "init"; customRecords: ModelRecordLike[] }
  | { kind: "reload"; id: number; modelId: string; chatOpts?: SmallChatOptions }
  | { kind: "unload"; id: number }
  | { kind: "chat"; id: number; request: SmallChatRequest }
  /** The page stopped reading chat `id`: end the engine's stream (it then frees the model). */
  | { kind: "close"; id: number }
  | { kind: "interrupt" }
  | { kind: "stats"; id: number }
  /** Deletes a model's cached files (WebLLM's deleteModelAllInfoInCache). */
  | { kind: "delete"; id: number; modelId: string };

/** What the worker answers. */
export type WorkerMessage =
  | { kind: "progress"; report: InitProgressReportLike }
  /** Chat `id` started: chunks follow, then `done` (or `failed`). */
  | { kind: "started"; id: number }
  | { kind: "chunk"; id: number; chunk: SmallChunk }
  | { kind: "done"; id: number; text?: string }
  /** The error as text ("Name: message"), as WebLLM's own worker sends it (errors.ts reads it). */
  | { kind: "failed"; id: number; error: string };

/** A `Worker`, a worker's `self` or a `MessagePort`: what both sides need of the other end. */
export interface Port<Out, In> {
  postMessage(message: Out): void;
  addEventListener(type: "message", listener: (event: MessageEvent<In>) => void): void;
}

/**
 * An error the worker reported. Its message is the worker's text and its name stays "Error", so
 * `errorText` (errors.ts) reads exactly what WebLLM's own worker sent before: classification and
 * the details shown are unchanged.
 */
export class WorkerEngineError extends Error {}

interface Pending {
  resolve(text: string | undefined): void;
  reject(e: Error): void;
}

/** Chunks of one chat as they arrive, read by one async iterator. */
class ChunkQueue implements AsyncIterator<SmallChunk> {
  private items: SmallChunk[] = [];
  private waiter: { resolve(r: IteratorResult<SmallChunk>): void; reject(e: Error): void } | null =
    null;
  private ended = false;
  private closing = false;
  private error: Error | null = null;
  private onEnd: () => void = () => undefined;
  /** Settles once the worker says the chat is over: its engine stream has really ended. */
  private readonly over = new Promise<void>((resolve) => (this.onEnd = resolve));

  constructor(private readonly onClose: () => void) {}

  push(chunk: SmallChunk): void {
    if (this.closing) return;
    if (this.waiter) {
      this.waiter.resolve({ done: false, value: chunk });
      this.waiter = null;
    } else this.items.push(chunk);
  }

  end(error: Error | null): void {
    this.ended = true;
    this.error = error;
    this.onEnd();
    if (!this.waiter) return;
    if (error) this.waiter.reject(error);
    else this.waiter.resolve({ done: true, value: undefined });
    this.waiter = null;
  }

  next(): Promise<IteratorResult<SmallChunk>> {
    const item = this.items.shift();
    if (item) return Promise.resolve({ done: false, value: item });
    if (this.error) return Promise.reject(this.error);
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** Stops reading: asks the worker to end the engine's stream, and waits until it has. */
  async return(): Promise<IteratorResult<SmallChunk>> {
    this.items = [];
    if (!this.ended && !this.closing) {
      this.closing = true;
      this.onClose();
    }
    await this.over;
    return { done: true, value: undefined };
  }
}

/**
 * The page's engine over a model worker: a `SmallEngine` whose calls are messages. `reload`
 * reports WebLLM's progress through `onProgress`; a worker's failure rejects with its text.
 */
export function connectEngine(
  port: Port<PageMessage, WorkerMessage>,
  opts: {
    customRecords?: readonly ModelRecordLike[];
    onProgress?: (report: InitProgressReportLike) => void;
  } = {},
): SmallEngine & { deleteModel(modelId: string): Promise<void> } {
  let next = 0;
  const pending = new Map<number, Pending>();
  const chats = new Map<number, { queue: ChunkQueue; started: Pending }>();

  port.addEventListener("message", (event) => {
    const m = event.data;
    if (m.kind === "progress") return opts.onProgress?.(m.report);
    const chat = chats.get(m.id);
    if (chat) {
      if (m.kind === "started") chat.started.resolve(undefined);
      else if (m.kind === "chunk") chat.queue.push(m.chunk);
      else {
        chats.delete(m.id);
        const error = m.kind === "failed" ? new WorkerEngineError(m.error) : null;
        if (error) chat.started.reject(error);
        chat.queue.end(error);
      }
      return;
    }
    const call = pending.get(m.id);
    if (!call) return;
    pending.delete(m.id);
    if (m.kind === "failed") call.reject(new WorkerEngineError(m.error));
    else if (m.kind === "done") call.resolve(m.text);
  });
  port.postMessage({ kind: "init", customRecords: [...(opts.customRecords ?? [])] });

  const ask = (message: PageMessage & { id: number }) =>
    new Promise<string | undefined>((resolve, reject) => {
      pending.set(message.id, { resolve, reject });
      port.postMessage(message);
    });

  return {
    chat: {
      completions: {
        create(request: SmallChatRequest): Promise<AsyncIterable<SmallChunk>> {
          const id = next++;
          const queue = new ChunkQueue(() => port.postMessage({ kind: "close", id }));
          return new Promise((resolve, reject) => {
            chats.set(id, {
              queue,
              started: {
                resolve: () => resolve({ [Symbol.asyncIterator]: () => queue }),
                reject,
              },
            });
            port.postMessage({ kind: "chat", id, request });
          });
        },
      },
    },
    interruptGenerate: () => port.postMessage({ kind: "interrupt" }),
    reload: async (modelId, chatOpts) => {
      await ask({ kind: "reload", id: next++, modelId, ...(chatOpts ? { chatOpts } : {}) });
    },
    unload: async () => {
      await ask({ kind: "unload", id: next++ });
    },
    runtimeStatsText: async () => (await ask({ kind: "stats", id: next++ })) ?? "",
    deleteModel: async (modelId) => {
      await ask({ kind: "delete", id: next++, modelId });
    },
  };
}
