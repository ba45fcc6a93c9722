import { builtApp } from "./app.ts";
import { benchCode } from "./code.ts";
import { benchCodeBrowser } from "./code-browser.ts";
import { benchEval } from "./eval.ts";
import { benchEvalMemory } from "./eval-memory.ts";
import { benchContent } from "./content.ts";
import { benchHistory } from "./history.ts";
import { benchPageLoad } from "./pageload.ts";
import { loadLayout } from "../src/engine/graph/layout.ts";
import { benchPoolEditor } from "./pool-editor.ts";
import { benchParser } from "./parser.ts";
import { benchRoutes } from "./routes.ts";
import { benchScheduling } from "./scheduling.ts";
import { benchReward } from "./reward.ts";
import { benchRewardReplicas } from "./reward-replicas.ts";
import { benchServe } from "./serve.ts";
import { benchUi } from "./ui.ts";

/** `npm run bench`: prints the project's performance figures. Benchmarks print; tests assert. */
await benchScheduling();
await benchServe();
await benchReward();
await benchRewardReplicas();
await benchCode();
await benchEval();
await benchEvalMemory();
benchParser();
await loadLayout();
benchRoutes();
const app = await builtApp();
try {
  benchPageLoad(app.dir, app.source);
  await benchUi(app.dir);
  await benchPoolEditor(app.dir);
  await benchContent(app.dir);
  await benchHistory(app.dir);
  await benchCodeBrowser(app.dir);
} finally {
  app.dispose();
}
