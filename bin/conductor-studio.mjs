#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx, so `npx conductor-studio` works after `npm ci`
// with no build step.
import { register } from "tsx/esm/api";

// A reader that stops early (`| head`) closes the pipe: stop quietly, as Unix tools do.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (e) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw e;
  });

register();
const { main, internalError } = await import("../src/cli/main.ts");
// Whatever escapes a command (a bug) is one line for the user, not a Node stack trace.
const crash = (e) => {
  process.exitCode = internalError(e, { stderr: (s) => process.stderr.write(s), env: process.env });
  process.exit();
};
process.on("uncaughtException", crash);
process.on("unhandledRejection", crash);
process.exitCode = await main(process.argv.slice(2));
