// Entry of the Node interpreter thread: worker threads run plain JavaScript, so this registers
// tsx (as bin/conductor-studio.mjs does) and then loads the TypeScript worker.
import { register } from "tsx/esm/api";

register();
await import("./node-worker.ts");
