// The chat call's HTTP request, made directly with fetch, and its failures as the `openai`
// package's error classes (so toLlmError reads them as before). Building a request through the
// package's client cost more CPU than parsing the whole streamed answer.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";

export interface ChatPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  /** How long to wait for the response to start (headers). */
  timeoutMs: number;
  fetch: typeof fetch;
}

const isAbortError = (e: unknown) =>
  typeof e === "object" && e !== null && "name" in e && e.name === "AbortError";

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * POSTs the call and resolves with a 2xx response whose body has not been read. `signal` stays
 * linked to the request for its whole life, so an abort mid-stream closes the connection.
 */
export async function postChat(o: ChatPost): Promise<Response> {
  if (o.signal.aborted) throw new APIUserAbortError();
  const controller = new AbortController();
  const abort = () => controller.abort();
  o.signal.addEventListener("abort", abort, { once: true });
  const timer = setTimeout(abort, o.timeoutMs);
  let response: Response;
  try {
    response = await o.fetch(o.url, {
      method: "POST",
      headers: o.headers,
      body: o.body,
      signal: controller.signal,
    });
  } catch (e: unknown) {
    if (o.signal.aborted) throw new APIUserAbortError();
    const cause = e instanceof Error ? e : new Error(String(e));
    const detail = `${String(e)}${"cause" in cause ? String(cause.cause) : ""}`;
    if (isAbortError(e) || /timed? ?out/i.test(detail)) throw new APIConnectionTimeoutError();
    throw new APIConnectionError({ cause });
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) {
    const text = await response
      .text()
      .catch((e: unknown) => (e instanceof Error ? e.message : String(e)));
    const parsed = parseJson(text);
    // As the client: a JSON body is the error's source (its `error` object read), else the text.
    const source = parsed === undefined || parsed === null ? undefined : (Object(parsed) as object);
    throw APIError.generate(response.status, source, parsed ? undefined : text, response.headers);
  }
  return response;
}
