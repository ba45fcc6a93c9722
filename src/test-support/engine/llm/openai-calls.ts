// Test support for the OpenAI-compatible adapter's tests (engine/llm/openai.ts). Imported by test
// files only.
import { nodeFetch } from "../../../cli/kit/fetch.ts";

/** The fetch the backend calls: the global one (browsers, tests) or the CLI's node:http one. */
export const TRANSPORTS: [string, typeof fetch | undefined][] = [
  ["the global fetch", undefined],
  ["the CLI's node:http fetch", nodeFetch],
];
