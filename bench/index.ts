import { benchScheduling } from "./scheduling.ts";

/** `npm run bench`: prints the project's performance figures. Benchmarks print; tests assert. */
await benchScheduling();
