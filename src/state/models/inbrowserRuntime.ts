/**
 * The one in-browser Conductor runtime that holds memory: a WebLLM model (GPU) or a GGUF model
 * (llama.cpp). Both controllers load through this slot, so loading one frees the other first; a
 * 7B model of each at once would not fit the GPUs (8 GB) the studio is made for.
 */
import type { ChatBackend } from "../../engine/llm/types.ts";
import { setInBrowserBackend } from "../run/backends.ts";

export type RuntimeKind = "webllm" | "gguf";

interface Held {
  kind: RuntimeKind;
  free: () => Promise<void>;
}

let held: Held | null = null;

/** Makes `backend` the in-browser one; `free` releases its memory when another replaces it. */
export function holdRuntime(kind: RuntimeKind, backend: ChatBackend, free: () => Promise<void>) {
  held = { kind, free };
  setInBrowserBackend(backend);
}

/** Frees the runtime that holds memory, whichever it is; resolves once its memory is released. */
export async function releaseRuntime(): Promise<void> {
  const was = held;
  held = null;
  setInBrowserBackend(null);
  await was?.free().catch(() => undefined);
}

/** Which runtime holds memory now, if any. */
export function heldRuntime(): RuntimeKind | null {
  return held?.kind ?? null;
}

/** Whether an in-browser model id names a GGUF model (ggufController.ts gives them "gguf:"). */
export const isGgufId = (id: string | null): boolean => !!id?.startsWith("gguf:");
