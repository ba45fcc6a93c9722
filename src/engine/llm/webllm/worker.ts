/**
 * The dedicated module Web Worker that holds WebLLM's engine; the page talks to it through
 * `CreateWebWorkerMLCEngine` (see loader.ts). Errors cross back to the page as strings.
 */
import { WebWorkerMLCEngineHandler } from "@mlc-ai/web-llm";

const handler = new WebWorkerMLCEngineHandler();
self.onmessage = (msg: MessageEvent) => {
  handler.onmessage(msg);
};
