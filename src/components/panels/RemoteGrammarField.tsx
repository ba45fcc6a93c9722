import type { PlanGrammarMode } from "../../engine/conductor/constrain.ts";
import { REMOTE_GRAMMAR_MODES } from "../../engine/conductor/constrain.ts";
import { useStudio } from "../../state/slices/store.ts";

/** "Constrain the plan" for the remote Conductor: which grammar field this endpoint's server takes. */
export function RemoteGrammarField() {
  const baseURL = useStudio((s) => s.conductor.baseURL.trim());
  const mode = useStudio((s) => s.conductor.remoteGrammar[s.conductor.baseURL.trim()] ?? "off");
  const st = useStudio.getState;
  const choose = (next: PlanGrammarMode) => {
    const remoteGrammar = { ...st().conductor.remoteGrammar, [baseURL]: next };
    st().setConductor({ remoteGrammar });
  };
  return (
    <label className="field span2 with-hint">
      Constrain the plan (for this endpoint)
      <select
        data-testid="conductor-grammar"
        value={mode}
        onChange={(e) => choose(e.target.value as PlanGrammarMode)}
      >
        {REMOTE_GRAMMAR_MODES.map((m) => (
          <option key={m.mode} value={m.mode}>
            {m.label}
          </option>
        ))}
      </select>
      <span className="muted small">
        The server decodes the plan under a grammar built from the pool and the step cap, so it
        always parses. If the server refuses the field, the plan fails with a message saying so.
      </span>
    </label>
  );
}
