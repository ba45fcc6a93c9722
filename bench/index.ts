import { builtApp } from "./app.ts";
import { benchHistory } from "./history.ts";
import { benchPageLoad } from "./pageload.ts";
import { benchScheduling } from "./scheduling.ts";
import { benchUi } from "./ui.ts";

/** `npm run bench`: prints the project's performance figures. Benchmarks print; tests assert. */
await benchScheduling();
const app = await builtApp();
try {
  benchPageLoad(app.dir, app.source);
  await benchUi(app.dir);
  await benchHistory(app.dir);
} finally {
  app.dispose();
}
