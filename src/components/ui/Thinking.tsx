import { useEffect, useState } from "react";
import { describeRetry } from "../../engine/exec/retry.ts";
import type { RetryState } from "../../engine/schema/record.ts";
import "./thinking.css";

/**
 * A model's reasoning, collapsed under "Thinking": shown apart from the answer, which is all that
 * later steps read. While `streaming`, the summary says so; `tail` keeps only the latest characters
 * (a canvas node stays cheap to render while five steps stream).
 */
export function Thinking({
  text,
  streaming,
  tail,
  testId = "thinking",
}: {
  text: string;
  streaming: boolean;
  tail?: number;
  testId?: string;
}) {
  if (!text) return null;
  const shown = tail !== undefined && text.length > tail ? `…${text.slice(-tail)}` : text;
  const words = text.trim().split(/\s+/).length;
  return (
    <details className="thinking nodrag nowheel" data-testid={testId}>
      <summary>
        Thinking{streaming ? "…" : ""}{" "}
        <span className="muted">
          ({words.toLocaleString()} word{words === 1 ? "" : "s"})
        </span>
      </summary>
      <pre className="thinking-text" data-testid={`${testId}-text`}>
        {shown}
      </pre>
    </details>
  );
}

/**
 * A retry in progress, "retrying 2 of 4 in 3 s after 429", counting down to the next attempt; the
 * error that caused it in full as its tooltip.
 */
export function RetryNote({ retry, testId }: { retry: RetryState; testId: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  // Never more than the scripted delay, whatever the clocks say.
  const left = Math.min(retry.delayMs, Math.max(0, retry.at + retry.delayMs - now));
  return (
    <div className="retry-note" role="status" data-testid={testId} title={retry.message}>
      ↻ {describeRetry({ ...retry, delayMs: left })}
    </div>
  );
}
