/** Plain words for an error code; the code itself goes in the tooltip. */
const WORDS: Record<string, string> = {
  missing_list: "could not read the plan",
  unparseable_list: "could not read the plan",
  length_mismatch: "could not read the plan",
  no_steps: "empty plan",
  too_many_steps: "too many steps",
  bad_worker: "unknown worker in the plan",
  missing_worker: "worker not in the pool",
  bad_access: "could not read the plan",
  empty_subtask: "empty subtask in the plan",
  auth: "key refused",
  not_found: "model not found",
  rate_limited: "rate limited",
  server: "server error",
  network: "endpoint unreachable",
  dropped: "connection dropped",
  timeout: "timed out",
  aborted: "cancelled",
  budget: "budget reached",
  context_length: "too long for the model",
  model_not_loaded: "model not loaded",
};

/** The words shown for an error code. */
export const errorWords = (code: string) => WORDS[code] ?? "failed";

/** A failure badge: words, with the error code in its tooltip. */
export function ErrorBadge({ code, testId }: { code: string; testId?: string }) {
  return (
    <span
      className="badge badge-failed"
      title={`Error code: ${code}`}
      data-testid={testId}
      data-code={code}
    >
      {errorWords(code)}
    </span>
  );
}
