// `conductor-studio serve` as a registry entry: the server itself is serve.ts, its options serve-args.ts.
import type { CliCommand } from "../command.ts";
import { serveCommand as serve } from "../serve/server.ts";
import { SERVE_HELP } from "../serve/args.ts";

export const serveCommand: CliCommand = {
  name: "serve",
  summary: "serve the Conductor and its pool as one OpenAI-compatible model",
  help: SERVE_HELP,
  run: (args, io) => serve(args, io),
};
