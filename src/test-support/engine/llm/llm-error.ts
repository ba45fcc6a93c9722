// Test support for calls that fail with an LlmError (engine/llm/types.ts). Imported by test files only.
import { LlmError } from "../../../engine/llm/types.ts";

/**
 * Resolves with the LlmError a call rejects with (a promise, or a function that starts the call, so
 * that an error thrown before the promise exists counts too); fails the test if it resolves, and
 * throws on any other error.
 */
export async function llmErrorOf(
  call: Promise<unknown> | (() => Promise<unknown>),
): Promise<LlmError> {
  try {
    await (typeof call === "function" ? call() : call);
  } catch (e: unknown) {
    if (e instanceof LlmError) return e;
    throw e;
  }
  throw new Error("expected the call to fail with an LlmError");
}
