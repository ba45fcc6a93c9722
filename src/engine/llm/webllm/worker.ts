/**
 * The dedicated module Web Worker that holds WebLLM: the only place the library is loaded. The
 * page talks to it in the studio's own messages (worker-protocol.ts, served by worker-host.ts).
 */
import type { AppConfig, ModelRecord } from "@mlc-ai/web-llm";
import { MLCEngine, deleteModelAllInfoInCache, prebuiltAppConfig } from "@mlc-ai/web-llm";
import type { ModelRecordLike } from "./catalogue.ts";
import { serveEngine } from "./worker-host.ts";
import type { PageMessage, Port, WorkerMessage } from "./worker-protocol.ts";

/** WebLLM's prebuilt records plus the user's custom ones. */
function appConfigWith(custom: readonly ModelRecordLike[]): AppConfig {
  const list: ModelRecord[] = [...prebuiltAppConfig.model_list, ...custom];
  return { ...prebuiltAppConfig, model_list: list };
}

const port: Port<WorkerMessage, PageMessage> = self;
serveEngine(port, {
  createEngine: (custom, onProgress) =>
    new MLCEngine({ appConfig: appConfigWith(custom), initProgressCallback: onProgress }),
  deleteModel: (modelId, custom) => deleteModelAllInfoInCache(modelId, appConfigWith(custom)),
});
