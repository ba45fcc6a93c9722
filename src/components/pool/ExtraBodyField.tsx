import { useState } from "react";
import type { Worker } from "../../engine/schema/worker.ts";
import { readExtraBody } from "../../engine/schema/worker.ts";
import { useStudio } from "../../state/slices/store.ts";

const PLACEHOLDER = '{"chat_template_kwargs": {"enable_thinking": false}}';

/**
 * Extra request fields for one worker, as JSON: merged into every call's body (reasoning effort,
 * a thinking switch, provider routing). Only valid text reaches the worker; until then the error
 * shows and the last valid fields stay in force.
 */
export function ExtraBodyField({ worker }: { worker: Worker }) {
  const saved = worker.extraBody ? JSON.stringify(worker.extraBody, null, 2) : "";
  const [draft, setDraft] = useState(saved);
  const [seen, setSeen] = useState(saved);
  // A change from elsewhere (a preset, an import, undo) replaces the draft.
  if (saved !== seen) {
    setSeen(saved);
    setDraft(saved);
  }
  const result = readExtraBody(draft);
  return (
    <label className="field span2">
      Extra request fields (JSON, merged into each request)
      <textarea
        aria-label="Extra request fields"
        data-testid="worker-extra-body"
        rows={draft.includes("\n") ? 4 : 2}
        spellCheck={false}
        placeholder={PLACEHOLDER}
        aria-invalid={!result.ok}
        value={draft}
        onChange={(e) => {
          const text = e.target.value;
          setDraft(text);
          const next = readExtraBody(text);
          if (!next.ok) return;
          const json = next.body ? JSON.stringify(next.body, null, 2) : "";
          setSeen(json);
          useStudio.getState().updateWorker(worker.id, { extraBody: next.body });
        }}
      />
      {!result.ok && (
        <span className="field-error small" role="alert" data-testid="worker-extra-body-error">
          {result.message}
        </span>
      )}
    </label>
  );
}
